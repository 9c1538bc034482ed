import { constants, createReadStream } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  contentDigest,
  fsyncDir,
  isErrno,
  randomName,
  renameIntoPlace,
  tempPath,
  writeAll,
  writeFileDurably,
  writeHashed,
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
  SizeMismatchError,
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

/** A part stored in the upload's sequence file, right after the one before it. */
interface SequencedPart {
  partNumber: number;
  size: number;
  etag: string;
}

/** Where a part's bytes are: its own file, or a range of the sequence file. */
type PartSource = { kind: 'file'; path: string; size: number } | { kind: 'range'; start: number; size: number; etag: string };

/** 128 random bits: an upload id is a capability, so it must not be guessable. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const RECORD_FILE = 'upload.json';
const SEQUENCE_FILE = 'sequence.data';
const SEQUENCE_INDEX = 'sequence.json';
const partFile = (partNumber: number): string => `${String(partNumber).padStart(5, '0')}.part`;
const COPY_CHUNK = 1024 * 1024;

/**
 * Multipart uploads on the local file system, with S3's semantics: one directory per upload under
 * `.uploads/<id>/` holding `upload.json` and the parts.
 *
 * Parts usually arrive in order, one after the other (a resumable upload is a single stream cut
 * into parts). Such a part is appended to the upload's sequence file, fsynced, and then recorded
 * in `sequence.json`; completing with exactly those parts truncates the sequence file to them
 * and renames it into place, so finishing a 2 GB upload moves no bytes. A part that does not
 * extend the sequence (out of order, uploaded again, or while another part of the upload is
 * being appended) gets a file of its own, which takes precedence over a range of the sequence
 * with the same number; completing then streams the parts into a temporary file (constant
 * memory). Bytes past the recorded sequence (a part cut off by a crash) are overwritten by the
 * next append and never become part of the object. Like the adapter, this assumes one writing
 * process per root.
 */
export class FsMultipartUploads {
  /** Uploads with an append in progress in this process. */
  private readonly appending = new Set<string>();

  constructor(
    private readonly uploadsDir: string,
    private readonly tmpDir: string,
    private readonly commit: CommitObject,
  ) {}

  async create(key: string, contentType: string): Promise<string> {
    const uploadId = randomName();
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
    try {
      if (!this.appending.has(uploadId)) {
        this.appending.add(uploadId);
        try {
          const sequence = await this.readSequence(dir);
          if (partNumber === sequence.length + 1 && !(await exists(join(dir, partFile(partNumber))))) {
            return await this.append(dir, sequence, partNumber, body, size);
          }
        } finally {
          this.appending.delete(uploadId);
        }
      }
      const temp = tempPath(dir);
      const written = await writeFileDurably(temp, body, size);
      // Renaming over an existing part replaces it: a retried chunk simply wins.
      await rename(temp, join(dir, partFile(partNumber)));
      return { partNumber, etag: written.digest.toString('hex'), size: written.size };
    } catch (err) {
      // The directory vanished under us: the upload was aborted or completed meanwhile.
      if (isErrno(err, 'ENOENT')) throw new MultipartUploadNotFoundError(uploadId);
      throw err;
    }
  }

  async complete(key: string, uploadId: string, parts: MultipartPart[]): Promise<ObjectInfo> {
    const { dir, record } = await this.locate(key, uploadId);
    const sequence = await this.readSequence(dir);
    const sources = await this.checkParts(dir, parts, sequence);
    // Shaped like S3's multipart etag: a digest of the parts' digests, then the part count.
    const etagOf = (digests: Buffer[]) => {
      const hash = contentDigest();
      hash.update(Buffer.concat(digests));
      return `${hash.digest().toString('hex')}-${parts.length}`;
    };

    const inSequence = sources.every((source, index) => source.kind === 'range' && sequence[index]?.partNumber === parts[index]!.partNumber);
    if (inSequence) {
      for (const [index, part] of parts.entries()) {
        if (normalizeEtag(part.etag) !== sequence[index]!.etag) throw new InvalidMultipartError(`Part ${part.partNumber} does not match etag ${part.etag}`);
      }
      const size = sources.reduce((sum, source) => sum + source.size, 0);
      // A hard link, so the upload keeps its bytes if committing fails.
      const temp = tempPath(this.tmpDir);
      await link(join(dir, SEQUENCE_FILE), temp);
      const handle = await open(temp, 'r+');
      try {
        await handle.truncate(size);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      const info = await this.commit(record.key, temp, {
        size,
        etag: etagOf(sequence.slice(0, parts.length).map((part) => Buffer.from(part.etag, 'hex'))),
        contentType: record.contentType,
      });
      await rm(dir, { recursive: true, force: true });
      return info;
    }

    const temp = tempPath(this.tmpDir);
    const handle = await open(temp, 'wx');
    const digests: Buffer[] = [];
    let size = 0;
    try {
      for (const [index, part] of parts.entries()) {
        const source = sources[index]!;
        const hash = contentDigest();
        const stream =
          source.kind === 'file'
            ? createReadStream(source.path, { highWaterMark: COPY_CHUNK })
            : createReadStream(join(dir, SEQUENCE_FILE), { highWaterMark: COPY_CHUNK, start: source.start, end: source.start + source.size - 1 });
        let copied = 0;
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          hash.update(chunk);
          copied += chunk.length;
          await writeAll(handle, chunk);
        }
        if (copied !== source.size) throw new InvalidMultipartError(`Part ${part.partNumber} has ${copied} bytes stored of ${source.size}`);
        size += copied;
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

    const info = await this.commit(record.key, temp, { size, etag: etagOf(digests), contentType: record.contentType });
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

  /**
   * Appends part `partNumber` (the next in sequence) at the end of the recorded sequence, then
   * records it. What a failed or cut-off append wrote stays past the recorded end, unused.
   */
  private async append(dir: string, sequence: SequencedPart[], partNumber: number, body: Readable | Buffer, size: number): Promise<MultipartPart> {
    const start = sequence.reduce((sum, part) => sum + part.size, 0);
    const handle = await open(join(dir, SEQUENCE_FILE), constants.O_WRONLY | constants.O_CREAT);
    let etag: string;
    try {
      const written = await writeHashed(handle, body, { position: start, maxSize: size });
      if (written.size !== size) throw new SizeMismatchError(size, written.size);
      await handle.datasync();
      etag = written.digest.toString('hex');
    } finally {
      await handle.close();
    }
    const temp = tempPath(dir);
    await writeSmallFileDurably(temp, JSON.stringify([...sequence, { partNumber, size, etag }]));
    await rename(temp, join(dir, SEQUENCE_INDEX));
    await fsyncDir(dir);
    return { partNumber, etag, size };
  }

  private async readSequence(dir: string): Promise<SequencedPart[]> {
    try {
      return JSON.parse(await readFile(join(dir, SEQUENCE_INDEX), 'utf8')) as SequencedPart[];
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return [];
      throw err;
    }
  }

  /** Rejects a bad part list before any byte is copied; returns where each part's bytes are. */
  private async checkParts(dir: string, parts: MultipartPart[], sequence: SequencedPart[]): Promise<PartSource[]> {
    assertValidPartList(parts);
    const starts = new Map<number, number>();
    sequence.reduce((start, part) => (starts.set(part.partNumber, start), start + part.size), 0);
    const sources: PartSource[] = [];
    for (const [index, part] of parts.entries()) {
      const path = join(dir, partFile(part.partNumber));
      let source: PartSource | undefined;
      try {
        source = { kind: 'file', path, size: (await stat(path)).size };
      } catch (err) {
        if (!isErrno(err, 'ENOENT')) throw err;
        const sequenced = sequence[part.partNumber - 1];
        if (sequenced) source = { kind: 'range', start: starts.get(part.partNumber)!, size: sequenced.size, etag: sequenced.etag };
      }
      if (!source) throw new InvalidMultipartError(`Part ${part.partNumber} was not uploaded`);
      if (index < parts.length - 1 && source.size < MULTIPART_MIN_PART_SIZE) {
        throw new InvalidMultipartError(
          `Part ${part.partNumber} has ${source.size} bytes; every part but the last needs at least ${MULTIPART_MIN_PART_SIZE}`,
        );
      }
      sources.push(source);
    }
    return sources;
  }
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    (err: unknown) => {
      if (isErrno(err, 'ENOENT')) return false;
      throw err;
    },
  );
