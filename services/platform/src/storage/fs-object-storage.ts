import { constants } from 'node:fs';
import { access, type FileHandle, mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import {
  fsyncDir,
  isErrno,
  randomName,
  removeEmptyDirs,
  renameIntoPlace,
  tempPath,
  writeFileDurably,
  writeSmallFileDurably,
} from './fs-files.js';
import { FsMultipartUploads } from './fs-multipart.js';
import {
  assertValidDirectoryPrefix,
  assertValidKey,
  assertValidPrefix,
  assertValidRange,
  assertValidSize,
} from './object-key.js';
import {
  type ByteRange,
  InvalidRangeError,
  type MultipartPart,
  type MultipartUploadInfo,
  type ObjectInfo,
  ObjectNotFoundError,
  type ObjectStorage,
  type ObjectSummary,
  type PutOptions,
} from './object-storage.port.js';

export interface FsObjectStorageOptions {
  /** Directory that holds everything; created on init(). */
  root: string;
}

/** The sidecar that makes a data file an object. Writing it is the commit point of a put. */
interface StoredMeta {
  version: string;
  size: number;
  contentType: string;
  etag: string;
  lastModified: string;
}

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/** Temp files older than this are leftovers of a crash, not writes in progress. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/*
 * Layout under the root:
 *   objects/<key>~meta       JSON sidecar: content type, etag, size and the current version
 *   objects/<key>~<version>  the bytes of that version
 *   .uploads/<id>/           multipart uploads in progress (see fs-multipart.ts)
 *   .tmp/                    files being written; same file system, so renames are atomic
 * `~` cannot occur in a key, so these names never collide with a key's directories.
 *
 * A put writes a new version file, then atomically replaces the sidecar, then removes the old
 * version: a crash at any point leaves either the old object or the new one, never a mix; at worst
 * an unreferenced version file. A reader opens the version the sidecar names and keeps reading it
 * even if a newer put replaces the object meanwhile.
 *
 * Assumes one writing process per root (the single-node setup); concurrent writers of one key can
 * leave an unreferenced version file behind, but never a sidecar that names a missing one.
 */
export class FsObjectStorage implements ObjectStorage {
  readonly kind = 'fs' as const;
  private readonly root: string;
  private readonly objectsDir: string;
  private readonly tmpDir: string;
  private readonly uploadsDir: string;
  private readonly multipart: FsMultipartUploads;

  constructor(options: FsObjectStorageOptions) {
    this.root = resolve(options.root);
    this.objectsDir = join(this.root, 'objects');
    this.tmpDir = join(this.root, '.tmp');
    this.uploadsDir = join(this.root, '.uploads');
    this.multipart = new FsMultipartUploads(this.uploadsDir, this.tmpDir, (key, temp, fields) =>
      this.commit(key, temp, fields),
    );
  }

  async init(): Promise<void> {
    for (const dir of [this.objectsDir, this.tmpDir, this.uploadsDir]) await mkdir(dir, { recursive: true });
    await this.removeStaleTempFiles();
  }

  async put(key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<ObjectInfo> {
    assertValidKey(key);
    if (options.size !== undefined) assertValidSize(options.size, 'size');
    const temp = tempPath(this.tmpDir);
    const written = await writeFileDurably(temp, body, options.size);
    return this.commit(key, temp, {
      size: written.size,
      etag: written.digest.toString('hex'),
      contentType: options.contentType ?? DEFAULT_CONTENT_TYPE,
    });
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.pathOf(key);
    if (range) assertValidRange(range);
    // A put may replace the version between reading the sidecar and opening it; look again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const meta = await this.readMeta(path);
      if (!meta) throw new ObjectNotFoundError(key);
      let handle: FileHandle;
      try {
        handle = await open(versionPath(path, meta.version), 'r');
      } catch (err) {
        if (isErrno(err, 'ENOENT')) continue;
        throw err;
      }
      if (!range) return handle.createReadStream();
      if (range.start >= meta.size) {
        await handle.close();
        throw new InvalidRangeError(`Range starts at ${range.start}, object ${key} has ${meta.size} bytes`);
      }
      return handle.createReadStream({ start: range.start, end: Math.min(range.end, meta.size - 1) });
    }
    throw new ObjectNotFoundError(key);
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const meta = await this.readMeta(this.pathOf(key));
    return meta ? toInfo(key, meta) : null;
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    const meta = await this.readMeta(path);
    if (!meta) return;
    await rm(metaPath(path), { force: true }); // the object is gone from here on
    await rm(versionPath(path, meta.version), { force: true });
    await removeEmptyDirs(dirname(path), this.objectsDir);
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidDirectoryPrefix(prefix);
    let count = 0;
    for await (const object of this.list(prefix)) {
      await this.delete(object.key);
      count++;
    }
    return count;
  }

  async *list(prefix: string): AsyncGenerator<ObjectSummary> {
    assertValidPrefix(prefix);
    yield* this.walk('', prefix);
  }

  async createMultipart(key: string, options: { contentType?: string } = {}): Promise<string> {
    assertValidKey(key);
    return this.multipart.create(key, options.contentType ?? DEFAULT_CONTENT_TYPE);
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, body: Readable | Buffer, size: number): Promise<MultipartPart> {
    assertValidKey(key);
    return this.multipart.uploadPart(key, uploadId, partNumber, body, size);
  }

  async completeMultipart(key: string, uploadId: string, parts: MultipartPart[]): Promise<ObjectInfo> {
    assertValidKey(key);
    return this.multipart.complete(key, uploadId, parts);
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    assertValidKey(key);
    return this.multipart.abort(key, uploadId);
  }

  async *listMultipartUploads(options: { prefix?: string; initiatedBefore?: Date } = {}): AsyncGenerator<MultipartUploadInfo> {
    if (options.prefix) assertValidPrefix(options.prefix);
    yield* this.multipart.list(options);
  }

  async isHealthy(): Promise<boolean> {
    try {
      for (const dir of [this.objectsDir, this.tmpDir, this.uploadsDir]) await access(dir, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  /** Turns a finished temp file into the object's current version. */
  private async commit(
    key: string,
    tempDataPath: string,
    fields: { size: number; etag: string; contentType: string },
  ): Promise<ObjectInfo> {
    const path = this.pathOf(key);
    const previous = await this.readMeta(path);
    const meta: StoredMeta = { version: randomName(8), ...fields, lastModified: new Date().toISOString() };
    const data = versionPath(path, meta.version);
    try {
      await renameIntoPlace(tempDataPath, data); // not visible yet: no sidecar names it
      const tempMeta = tempPath(this.tmpDir);
      await writeSmallFileDurably(tempMeta, JSON.stringify(meta));
      await renameIntoPlace(tempMeta, metaPath(path)); // the commit point
      await fsyncDir(dirname(path));
    } catch (err) {
      await rm(tempDataPath, { force: true });
      if ((await this.readMeta(path))?.version !== meta.version) await rm(data, { force: true });
      throw err;
    }
    if (previous) await rm(versionPath(path, previous.version), { force: true });
    return toInfo(key, meta);
  }

  /** The object's path without suffix; the key rules keep it inside the objects directory. */
  private pathOf(key: string): string {
    assertValidKey(key);
    const path = join(this.objectsDir, ...key.split('/'));
    if (!path.startsWith(this.objectsDir + sep)) throw new Error(`Key ${key} resolves outside the storage root`);
    return path;
  }

  private async readMeta(path: string): Promise<StoredMeta | null> {
    try {
      return JSON.parse(await readFile(metaPath(path), 'utf8')) as StoredMeta;
    } catch (err) {
      if (isErrno(err, 'ENOENT', 'ENOTDIR')) return null;
      throw err;
    }
  }

  /**
   * Depth-first walk in key order. Sorting a directory's entries with `/` appended to
   * subdirectory names yields exactly the byte order S3 lists keys in.
   */
  private async *walk(dirKey: string, prefix: string): AsyncGenerator<ObjectSummary> {
    let entries;
    try {
      entries = await readdir(join(this.objectsDir, dirKey), { withFileTypes: true });
    } catch (err) {
      if (isErrno(err, 'ENOENT', 'ENOTDIR')) return;
      throw err;
    }
    const items: { key: string; isDir: boolean }[] = [];
    for (const entry of entries) {
      if (entry.isDirectory()) {
        const key = `${dirKey}${entry.name}/`;
        if (key.startsWith(prefix) || prefix.startsWith(key)) items.push({ key, isDir: true });
      } else if (entry.name.endsWith(META_SUFFIX)) {
        const key = dirKey + entry.name.slice(0, -META_SUFFIX.length);
        if (key.startsWith(prefix)) items.push({ key, isDir: false });
      }
    }
    items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const item of items) {
      if (item.isDir) {
        yield* this.walk(item.key, prefix);
        continue;
      }
      const meta = await this.readMeta(this.pathOf(item.key));
      if (meta) yield { key: item.key, size: meta.size, etag: meta.etag, lastModified: new Date(meta.lastModified) };
    }
  }

  private async removeStaleTempFiles(): Promise<void> {
    const cutoff = Date.now() - STALE_TEMP_MS;
    for (const name of await readdir(this.tmpDir)) {
      const path = join(this.tmpDir, name);
      try {
        if ((await stat(path)).mtimeMs < cutoff) await rm(path, { recursive: true, force: true });
      } catch (err) {
        if (!isErrno(err, 'ENOENT')) throw err;
      }
    }
  }
}

const META_SUFFIX = '~meta';
const metaPath = (path: string): string => path + META_SUFFIX;
const versionPath = (path: string, version: string): string => `${path}~${version}`;

const toInfo = (key: string, meta: StoredMeta): ObjectInfo => ({
  key,
  size: meta.size,
  contentType: meta.contentType,
  etag: meta.etag,
  lastModified: new Date(meta.lastModified),
});
