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
export async function digestOf(data: Buffer): Promise<Buffer> {
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', data)).subarray(0, 16);
}

/**
 * Writes `data` at `position` (or at the file position) while its digest is computed alongside,
 * both off the event loop.
 */
export async function writeAndDigest(handle: FileHandle, data: Buffer, position?: number): Promise<Buffer> {
  const [, digest] = await Promise.all([position === undefined ? writeAll(handle, data) : writeAllAt(handle, data, position), digestOf(data)]);
  return digest;
}

/**
 * Streams `body` into a new file, fsyncs it and returns its size and digest, in constant memory.
 * With `expectedSize`, a body of any other length is rejected (and stops being read as soon as it
 * runs over). On any failure the file is removed, so callers never see a partial file.
 */
export async function writeFileDurably(path: string, body: Readable | Buffer, expectedSize?: number): Promise<WrittenFile> {
  const hash = contentDigest();
  let digest: Buffer | undefined;
  let size = 0;
  const handle = await open(path, 'wx');
  try {
    if (Buffer.isBuffer(body)) {
      size = body.length;
      if (expectedSize !== undefined && size !== expectedSize) throw new SizeMismatchError(expectedSize, size);
      digest = await writeAndDigest(handle, body);
    }
    const chunks: Iterable<Buffer> | AsyncIterable<Buffer | string> = Buffer.isBuffer(body) ? [] : body;
    for await (const raw of chunks) {
      const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
      size += chunk.length;
      if (expectedSize !== undefined && size > expectedSize) throw new SizeMismatchError(expectedSize, size);
      const writing = writeAll(handle, chunk);
      hash.update(chunk);
      await writing;
    }
    if (expectedSize !== undefined && size !== expectedSize) throw new SizeMismatchError(expectedSize, size);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw err;
  }
  await handle.close();
  return { size, digest: digest ?? hash.digest() };
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
