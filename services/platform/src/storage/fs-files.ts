import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { type FileHandle, mkdir, open, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { SizeMismatchError } from './object-storage.port.js';

/** File-system building blocks for the fs adapter: durable writes and atomic renames. */

export const isErrno = (err: unknown, ...codes: string[]): boolean =>
  typeof err === 'object' && err !== null && codes.includes((err as NodeJS.ErrnoException).code ?? '');

export const randomName = (bytes = 16): string => randomBytes(bytes).toString('hex');

/** `FileHandle.write` may write less than asked; loop until the whole chunk is on disk. */
export async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

/** The same at a given position of the file. */
export async function writeAllAt(handle: FileHandle, chunk: Buffer, position: number): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset, position + offset);
    offset += bytesWritten;
  }
}

export interface WrittenFile {
  size: number;
  /** See contentDigest. */
  digest: Buffer;
}

/**
 * The fs adapter's etags: the first 128 bits of the content's SHA-256. Like S3's MD5 etags they
 * change with the content; SHA-256 runs in hardware on current CPUs, over twice MD5's speed,
 * which matters when every byte of a 2 GB upload passes through it.
 */
export const contentDigest = () => {
  const hash = createHash('sha256');
  return {
    update: (chunk: Buffer) => void hash.update(chunk),
    digest: (): Buffer => hash.digest().subarray(0, 16),
  };
};

/**
 * contentDigest of a whole buffer, computed on libuv's thread pool (Web Crypto's digest) so the
 * event loop stays free: hashing 8 MiB takes ~7 ms, which would otherwise stall every request
 * this process serves, including the upload body being read.
 */
async function digestOf(data: Buffer): Promise<Buffer> {
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', data)).subarray(0, 16);
}

/**
 * Writes `body` at `position` (or at the file position) and returns its size and digest, hashed
 * while the writes run: a Buffer is written and hashed on the thread pool at once, a stream chunk
 * by chunk. A body longer than `maxSize` is rejected as soon as it runs over; callers check the
 * exact size.
 */
export async function writeHashed(handle: FileHandle, body: Readable | Buffer, options: { position?: number; maxSize?: number } = {}): Promise<WrittenFile> {
  const { position, maxSize } = options;
  const writeAt = (chunk: Buffer, offset: number) => (position === undefined ? writeAll(handle, chunk) : writeAllAt(handle, chunk, position + offset));
  if (Buffer.isBuffer(body)) {
    if (maxSize !== undefined && body.length > maxSize) throw new SizeMismatchError(maxSize, body.length);
    const [, digest] = await Promise.all([writeAt(body, 0), digestOf(body)]);
    return { size: body.length, digest };
  }
  const hash = contentDigest();
  let size = 0;
  for await (const raw of body as AsyncIterable<Buffer | string>) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    if (maxSize !== undefined && size + chunk.length > maxSize) throw new SizeMismatchError(maxSize, size + chunk.length);
    // The write runs on libuv's pool while this thread hashes the same bytes.
    const writing = writeAt(chunk, size);
    hash.update(chunk);
    await writing;
    size += chunk.length;
  }
  return { size, digest: hash.digest() };
}

/**
 * Streams `body` into a new file, fsyncs it and returns its size and digest, in constant memory.
 * With `expectedSize`, a body of any other length is rejected (and stops being read as soon as it
 * runs over). On any failure the file is removed, so callers never see a partial file.
 */
export async function writeFileDurably(path: string, body: Readable | Buffer, expectedSize?: number): Promise<WrittenFile> {
  const handle = await open(path, 'wx');
  let written: WrittenFile;
  try {
    written = await writeHashed(handle, body, { maxSize: expectedSize });
    if (expectedSize !== undefined && written.size !== expectedSize) throw new SizeMismatchError(expectedSize, written.size);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw err;
  }
  await handle.close();
  return written;
}

export async function writeSmallFileDurably(path: string, content: string): Promise<void> {
  await writeFileDurably(path, Buffer.from(content));
}

/**
 * Makes renames and new entries in `dir` survive a power loss. Some platforms cannot fsync a
 * directory; there the rename is as durable as the OS makes it.
 */
export async function fsyncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (err) {
    if (!isErrno(err, 'EISDIR', 'EINVAL', 'EPERM', 'EBADF')) throw err;
  } finally {
    await handle?.close();
  }
}

/**
 * Renames `from` to `to`, creating the target's directories. A concurrent delete may prune an
 * empty directory between our mkdir and rename; recreate it and try again.
 */
export async function renameIntoPlace(from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await mkdir(dirname(to), { recursive: true });
    try {
      await rename(from, to);
      return;
    } catch (err) {
      if (!isErrno(err, 'ENOENT') || attempt >= 5) throw err;
    }
  }
}

/** Removes `dir` and its parents while they are empty, never going above `root`. */
export async function removeEmptyDirs(dir: string, root: string): Promise<void> {
  let current = dir;
  while (current !== root && relative(root, current).split(sep)[0] !== '..') {
    try {
      await rmdir(current);
    } catch (err) {
      if (isErrno(err, 'ENOTEMPTY', 'EEXIST', 'ENOENT')) return;
      throw err;
    }
    current = dirname(current);
  }
}

export const tempPath = (dir: string): string => join(dir, `${randomName()}.tmp`);
