import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  fsyncDir,
  isErrno,
  randomName,
  renameIntoPlace,
  tempPath,
  writeAll,
  writeFileDurably,
  writeSmallFileDurably,
} from './fs-files.js';
import { assertValidPartList, assertValidPartNumber, assertValidSize, normalizeEtag } from './object-key.js';
import {
  InvalidMultipartError,
  MULTIPART_MIN_PART_SIZE,
  type MultipartPart,
  type MultipartUploadInfo,
  MultipartUploadNotFoundError,
  type ObjectInfo,
} from './object-storage.port.js';

/** Makes the finished file the object's content; supplied by the fs adapter. */
export type CommitObject = (
  key: string,
  tempDataPath: string,
  fields: { size: number; etag: string; contentType: string },
) => Promise<ObjectInfo>;

interface UploadRecord {
  key: string;
  contentType: string;
  initiated: string;
}

/** 128 random bits: an upload id is a capability, so it must not be guessable. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const RECORD_FILE = 'upload.json';
const partFile = (partNumber: number): string => `${String(partNumber).padStart(5, '0')}.part`;
const COPY_CHUNK = 1024 * 1024;

/**
 * Multipart uploads on the local file system, with S3's semantics: one directory per upload under
 * `.uploads/<id>/` holding `upload.json` and one file per part. Completing streams the parts into
 * a temporary file (constant memory, each part's MD5 checked against the caller's etag) and then
 * commits it like any other put.
 */
export class FsMultipartUploads {
  constructor(
    private readonly uploadsDir: string,
    private readonly tmpDir: string,
    private readonly commit: CommitObject,
  ) {}

  async create(key: string, contentType: string): Promise<string> {
    const uploadId = randomName(16);
    // Built in the temp area and renamed in whole, so an upload is never visible without its record.
    const staging = join(this.tmpDir, `${uploadId}.upload`);
    await mkdir(staging);
    const record: UploadRecord = { key, contentType, initiated: new Date().toISOString() };
    await writeSmallFileDurably(join(staging, RECORD_FILE), JSON.stringify(record));
    await renameIntoPlace(staging, join(this.uploadsDir, uploadId));
    await fsyncDir(this.uploadsDir);
    return uploadId;
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, body: Readable | Buffer, size: number): Promise<MultipartPart> {
    assertValidPartNumber(partNumber);
    assertValidSize(size, 'Part size');
    const { dir } = await this.locate(key, uploadId);
    const temp = tempPath(dir);
    try {
      const written = await writeFileDurably(temp, body, size);
      // Renaming over an existing part replaces it: a retried chunk simply wins.
      await rename(temp, join(dir, partFile(partNumber)));
      return { partNumber, etag: written.md5.toString('hex'), size: written.size };
    } catch (err) {
      // The directory vanished under us: the upload was aborted or completed meanwhile.
      if (isErrno(err, 'ENOENT')) throw new MultipartUploadNotFoundError(uploadId);
      throw err;
    }
  }

  async complete(key: string, uploadId: string, parts: MultipartPart[]): Promise<ObjectInfo> {
    const { dir, record } = await this.locate(key, uploadId);
    const paths = await this.checkParts(dir, parts);

    const temp = tempPath(this.tmpDir);
    const handle = await open(temp, 'wx');
    const digests: Buffer[] = [];
    let size = 0;
    try {
      for (const [index, part] of parts.entries()) {
        const hash = createHash('md5');
        for await (const chunk of createReadStream(paths[index]!, { highWaterMark: COPY_CHUNK }) as AsyncIterable<Buffer>) {
          hash.update(chunk);
          size += chunk.length;
          await writeAll(handle, chunk);
        }
        const digest = hash.digest();
        if (digest.toString('hex') !== normalizeEtag(part.etag)) {
          throw new InvalidMultipartError(`Part ${part.partNumber} does not match etag ${part.etag}`);
        }
        digests.push(digest);
      }
      await handle.sync();
    } catch (err) {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw err;
    }
    await handle.close();

    // S3's multipart etag: the MD5 of the parts' MD5s, then the part count.
    const etag = `${createHash('md5').update(Buffer.concat(digests)).digest('hex')}-${parts.length}`;
    const info = await this.commit(record.key, temp, { size, etag, contentType: record.contentType });
    await rm(dir, { recursive: true, force: true });
    return info;
  }

  async abort(key: string, uploadId: string): Promise<void> {
    if (!UPLOAD_ID.test(uploadId)) return;
    const dir = join(this.uploadsDir, uploadId);
    const record = await this.readRecord(dir);
    if (!record || record.key !== key) return;
    await rm(dir, { recursive: true, force: true });
  }

  async *list(options: { prefix?: string; initiatedBefore?: Date } = {}): AsyncGenerator<MultipartUploadInfo> {
    const uploads: MultipartUploadInfo[] = [];
    for (const uploadId of await readdir(this.uploadsDir)) {
      if (!UPLOAD_ID.test(uploadId)) continue;
      const record = await this.readRecord(join(this.uploadsDir, uploadId));
      if (!record) continue;
      const initiated = new Date(record.initiated);
      if (options.prefix && !record.key.startsWith(options.prefix)) continue;
      if (options.initiatedBefore && initiated >= options.initiatedBefore) continue;
      uploads.push({ key: record.key, uploadId, initiated });
    }
    uploads.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.initiated.getTime() - b.initiated.getTime()));
    yield* uploads;
  }

  /** The upload's directory and record; the id is checked before it touches a path. */
  private async locate(key: string, uploadId: string): Promise<{ dir: string; record: UploadRecord }> {
    if (typeof uploadId !== 'string' || !UPLOAD_ID.test(uploadId)) throw new MultipartUploadNotFoundError(String(uploadId));
    const dir = join(this.uploadsDir, uploadId);
    const record = await this.readRecord(dir);
    // S3 also answers NoSuchUpload when the id belongs to another key.
    if (!record || record.key !== key) throw new MultipartUploadNotFoundError(uploadId);
    return { dir, record };
  }

  private async readRecord(dir: string): Promise<UploadRecord | null> {
    try {
      return JSON.parse(await readFile(join(dir, RECORD_FILE), 'utf8')) as UploadRecord;
    } catch (err) {
      if (isErrno(err, 'ENOENT', 'ENOTDIR')) return null;
      throw err;
    }
  }

  /** Rejects a bad part list before any byte is copied; returns the parts' files in order. */
  private async checkParts(dir: string, parts: MultipartPart[]): Promise<string[]> {
    assertValidPartList(parts);
    const paths: string[] = [];
    for (const [index, part] of parts.entries()) {
      const path = join(dir, partFile(part.partNumber));
      let partSize: number;
      try {
        partSize = (await stat(path)).size;
      } catch (err) {
        if (isErrno(err, 'ENOENT')) throw new InvalidMultipartError(`Part ${part.partNumber} was not uploaded`);
        throw err;
      }
      if (index < parts.length - 1 && partSize < MULTIPART_MIN_PART_SIZE) {
        throw new InvalidMultipartError(
          `Part ${part.partNumber} has ${partSize} bytes; every part but the last needs at least ${MULTIPART_MIN_PART_SIZE}`,
        );
      }
      paths.push(path);
    }
    return paths;
  }
}
