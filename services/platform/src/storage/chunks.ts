import type { Readable } from 'node:stream';
import { SizeMismatchError } from './object-storage.port.js';

/**
 * Cuts a body into chunks of exactly `chunkSize` bytes (the last one may be shorter; an empty body
 * gives one empty chunk), for sending as parts.
 *
 * Full chunks are assembled in a rotation of `poolSize` buffers, so a body of any size costs
 * `poolSize` part buffers and leaves no part-sized garbage behind. The price: a yielded chunk is
 * overwritten `poolSize` chunks later, so a consumer may hold at most `poolSize` chunks at a time
 * (read ahead, then send each before asking for the next). A Buffer body is sliced, not copied.
 */
export async function* fixedSizeChunks(body: Readable | Buffer, chunkSize: number, poolSize = 2): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(body)) {
    if (body.length === 0) yield body;
    for (let offset = 0; offset < body.length; offset += chunkSize) yield body.subarray(offset, offset + chunkSize);
    return;
  }
  const pool: Buffer[] = [];
  let turn = 0;
  let pending: Buffer[] = [];
  let pendingSize = 0;
  let yielded = false;
  for await (const raw of body as AsyncIterable<Buffer | string>) {
    let chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    while (pendingSize + chunk.length >= chunkSize) {
      const part = (pool[turn++ % poolSize] ??= Buffer.allocUnsafe(chunkSize));
      let offset = 0;
      for (const piece of pending) offset += piece.copy(part, offset);
      const take = chunkSize - offset;
      chunk.copy(part, offset, 0, take);
      chunk = chunk.subarray(take);
      pending = [];
      pendingSize = 0;
      yield part;
      yielded = true;
    }
    if (chunk.length > 0) {
      pending.push(chunk);
      pendingSize += chunk.length;
    }
  }
  // The rest is smaller than a part: a body that fits in one part never allocates a full one.
  if (pendingSize > 0 || !yielded) yield Buffer.concat(pending, pendingSize);
}

/**
 * Reads a body of a declared size into one Buffer, failing as soon as it runs over. Used where the
 * protocol needs the whole payload up front (a signed S3 part).
 */
export async function readExactly(body: Readable | Buffer, size: number): Promise<Buffer> {
  if (Buffer.isBuffer(body)) {
    if (body.length !== size) throw new SizeMismatchError(size, body.length);
    return body;
  }
  const buffer = Buffer.allocUnsafe(size);
  let offset = 0;
  for await (const raw of body as AsyncIterable<Buffer | string>) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    if (offset + chunk.length > size) throw new SizeMismatchError(size, offset + chunk.length);
    chunk.copy(buffer, offset);
    offset += chunk.length;
  }
  if (offset !== size) throw new SizeMismatchError(size, offset);
  return buffer;
}
