import { constants, createReadStream } from 'node:fs';
import { type FileHandle, link, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
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
  writeAllAt,
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
/** One line of JSON per recorded part, in sequence order. */
const SEQUENCE_LOG = 'sequence.log';
/** The index of uploads begun before the log: one JSON array, rewritten whole per part. */
const LEGACY_SEQUENCE_INDEX = 'sequence.json';
const partFile = (partNumber: number): string => `${String(partNumber).padStart(5, '0')}.part`;
const PART_FILE = /^(\d{5})\.part$/;
const COPY_CHUNK = 1024 * 1024;

/** The recorded sequence as read from disk. */
interface StoredSequence {
  parts: SequencedPart[];
  /** Bytes of the log that hold whole records; the next record is written there. */
  logEnd: number;
  /** Recorded in the legacy index: the first commit writes every record into a new log. */
  rewriteLog: boolean;
}

/** A part of the sequence while this process appends it. */
interface PendingPart extends SequencedPart {
  written: boolean;
}

/**
 * An upload's sequence as this process extends it: the recorded parts, then the parts reserved
 * and being written, in order. Lives only while calls on the upload are running; an idle upload
 * is read from disk again, so another process's writes are never hidden by a stale copy.
 */
interface Appender extends StoredSequence {
  key: string;
  dir: string;
  parts: PendingPart[];
  /** `parts[0, recorded)` are durably in the log. */
  recorded: number;
  /** Where the next reserved part starts in the sequence file. */
  end: number;
  files?: Promise<{ data: FileHandle; log: FileHandle }>;
  /** Parts waiting for their record, by their index in `parts`. */
  waiters: Array<{ index: number; resolve: () => void; reject: (error: unknown) => void }>;
  committing: Promise<void> | null;
  /** Part numbers that have a file of their own. */
  partFiles: Set<number>;
  /** Calls using this appender; the last one to leave closes its files. */
  users: number;
  /** What `appenders` holds for it. */
  loading?: Promise<Appender>;
  inFlight: Set<Promise<unknown>>;
  /** The first part that failed: no part after it can be recorded, and the sequence is read again. */
  failure: { index: number; error: unknown } | null;
}

const recordLine = (part: SequencedPart): string => `${JSON.stringify({ partNumber: part.partNumber, size: part.size, etag: part.etag })}\n`;

/** The whole records of a log, in order; a torn or foreign line ends it. */
function parseSequenceLog(log: Buffer): { parts: SequencedPart[]; logEnd: number } {
  const parts: SequencedPart[] = [];
  let position = 0;
  for (;;) {
    const newline = log.indexOf(10, position);
    if (newline < 0) break;
    let record: Partial<SequencedPart>;
    try {
      record = JSON.parse(log.subarray(position, newline).toString('utf8')) as Partial<SequencedPart>;
    } catch {
      break;
    }
    const { partNumber, size, etag } = record;
    if (partNumber !== parts.length + 1 || !Number.isSafeInteger(size) || size! < 0 || typeof etag !== 'string' || !/^[0-9a-f]{32}$/.test(etag)) break;
    parts.push({ partNumber, size: size!, etag });
    position = newline + 1;
  }
  return { parts, logEnd: position };
}

/**
 * Multipart uploads on the local file system, with S3's semantics: one directory per upload under
 * `.uploads/<id>/` holding `upload.json` and the parts.
 *
 * Parts usually arrive in order (a resumable upload is a single stream cut into parts), and the
 * next may arrive while the one before it is still being written. Such a part reserves the byte
 * range after the last reserved one in the upload's sequence file and is written there at once,
 * concurrently with its predecessors. Written parts are made durable in groups: one sync of the
 * sequence file, then one append to `sequence.log` and its sync, cover every part written
 * meanwhile that follows the recorded ones without a gap. A part's call returns once its record
 * is durable, so the log only ever lists a gapless, durable prefix, and a busy upload pays two
 * syncs per group instead of three per part. Completing with exactly the recorded parts
 * truncates the sequence file to them and renames it into place, so finishing a 2 GB upload
 * moves no bytes. A part that does not extend the sequence (out of order, or uploaded again) gets
 * a file of its own; completing uses the sequence's range for a part whose etag it matches (the
 * same bytes sent again after a crash), else the part's own file, and streams the parts into a
 * temporary file (constant memory) unless they are all ranges in order. Bytes past the recorded
 * sequence (a part cut off by a crash or a failure) are overwritten by the next append and never
 * become part of the object. Like the adapter, this assumes one writing process per root.
 */
export class FsMultipartUploads {
  /** Uploads being written by calls in this process, by upload id. */
  private readonly appenders = new Map<string, Promise<Appender>>();

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
    const appender = await this.acquire(key, uploadId);
    try {
      // No await since acquiring: concurrent calls reserve in the order they were made.
      if (!appender.partFiles.has(partNumber) && partNumber === appender.parts.length + 1) {
        return await this.append(appender, partNumber, body, size);
      }
      const temp = tempPath(appender.dir);
      const written = await writeFileDurably(temp, body, size);
      // Renaming over an existing part replaces it: a retried chunk simply wins.
      await rename(temp, join(appender.dir, partFile(partNumber)));
      appender.partFiles.add(partNumber);
      return { partNumber, etag: written.digest.toString('hex'), size: written.size };
    } catch (err) {
      // The directory vanished under us: the upload was aborted or completed meanwhile.
      if (isErrno(err, 'ENOENT')) throw new MultipartUploadNotFoundError(uploadId);
      throw err;
    } finally {
      await this.release(uploadId, appender);
    }
  }

  async complete(key: string, uploadId: string, parts: MultipartPart[]): Promise<ObjectInfo> {
    const { dir, record } = await this.locate(key, uploadId);
    await this.settle(uploadId);
    const { parts: sequence } = await this.readSequence(dir);
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
    await this.settle(uploadId);
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
   * The upload's appender, shared by every call on the upload in this process; read from disk by
   * the first. After a failure, the next caller waits until every write the failed appender
   * reserved has settled, so that no write still running lands on a range handed out again.
   */
  private async acquire(key: string, uploadId: string): Promise<Appender> {
    for (;;) {
      let loading = this.appenders.get(uploadId);
      if (!loading) {
        const loaded = this.load(key, uploadId);
        this.appenders.set(uploadId, loaded);
        loaded.catch(() => {
          if (this.appenders.get(uploadId) === loaded) this.appenders.delete(uploadId);
        });
        loading = loaded;
      }
      const appender = await loading;
      appender.loading = loading;
      if (appender.key !== key) throw new MultipartUploadNotFoundError(uploadId);
      if (appender.failure) {
        await this.settle(uploadId, loading);
        continue;
      }
      appender.users += 1;
      return appender;
    }
  }

  private async load(key: string, uploadId: string): Promise<Appender> {
    const { dir } = await this.locate(key, uploadId);
    const stored = await this.readSequence(dir);
    const partFiles = new Set((await readdir(dir)).flatMap((name) => PART_FILE.exec(name)?.[1] ?? []).map(Number));
    return {
      key,
      dir,
      ...stored,
      parts: stored.parts.map((part) => ({ ...part, written: true })),
      recorded: stored.parts.length,
      end: stored.parts.reduce((sum, part) => sum + part.size, 0),
      waiters: [],
      committing: null,
      partFiles,
      users: 0,
      inFlight: new Set(),
      failure: null,
    };
  }

  /** The last call to leave an appender forgets it and closes its files. */
  private async release(uploadId: string, appender: Appender): Promise<void> {
    appender.users -= 1;
    if (appender.users > 0) return;
    if (appender.loading && this.appenders.get(uploadId) === appender.loading) this.appenders.delete(uploadId);
    await this.closeFiles(appender);
  }

  /** Waits until nothing is being appended to the upload in this process, and forgets its appender. */
  private async settle(uploadId: string, loading = this.appenders.get(uploadId)): Promise<void> {
    const appender = await loading?.catch(() => null);
    if (!appender) return;
    await Promise.allSettled([...appender.inFlight]);
    if (this.appenders.get(uploadId) === loading) this.appenders.delete(uploadId);
    await this.closeFiles(appender);
  }

  private async closeFiles(appender: Appender): Promise<void> {
    if (appender.inFlight.size > 0) return;
    await appender.committing;
    const files = appender.files;
    appender.files = undefined;
    if (files) {
      const opened = await files.catch(() => null);
      await Promise.allSettled([opened?.data.close(), opened?.log.close()]);
    }
  }

  /**
   * Appends part `partNumber` (the next in sequence) at the end of the reserved range and returns
   * once it is recorded. What a failed or cut-off append wrote stays past the recorded end,
   * unused; the parts reserved after a failed one fail with it.
   */
  private async append(appender: Appender, partNumber: number, body: Readable | Buffer, size: number): Promise<MultipartPart> {
    const entry: PendingPart = { partNumber, size, etag: '', written: false };
    const start = appender.end;
    const index = appender.parts.push(entry) - 1;
    appender.end += size;

    const work = (async (): Promise<MultipartPart> => {
      try {
        const { data } = await (appender.files ??= this.openFiles(appender.dir));
        const written = await writeHashed(data, body, { position: start, maxSize: size });
        if (written.size !== size) throw new SizeMismatchError(size, written.size);
        entry.etag = written.digest.toString('hex');
        entry.written = true;
      } catch (err) {
        this.fail(appender, index, err);
        throw err;
      }
      await this.recorded(appender, index);
      return { partNumber, etag: entry.etag, size };
    })();
    appender.inFlight.add(work);
    try {
      return await work;
    } finally {
      appender.inFlight.delete(work);
    }
  }

  private async openFiles(dir: string): Promise<{ data: FileHandle; log: FileHandle }> {
    const data = await open(join(dir, SEQUENCE_FILE), constants.O_WRONLY | constants.O_CREAT);
    try {
      return { data, log: await open(join(dir, SEQUENCE_LOG), constants.O_WRONLY | constants.O_CREAT) };
    } catch (err) {
      await data.close();
      throw err;
    }
  }

  /** Part `index` failed: it and every part after it will never be recorded. */
  private fail(appender: Appender, index: number, error: unknown): void {
    if (appender.failure && appender.failure.index <= index) return;
    appender.failure = { index, error };
    const waiting = appender.waiters;
    appender.waiters = waiting.filter((waiter) => waiter.index < index);
    for (const waiter of waiting) if (waiter.index >= index) waiter.reject(error);
  }

  /** Resolves once part `index` is durably recorded; rejects when it or a part before it failed. */
  private recorded(appender: Appender, index: number): Promise<void> {
    if (appender.recorded > index) return Promise.resolve();
    if (appender.failure && appender.failure.index <= index) return Promise.reject(appender.failure.error);
    return new Promise<void>((resolve, reject) => {
      appender.waiters.push({ index, resolve, reject });
      appender.committing ??= this.commitGroups(appender);
    });
  }

  /**
   * Group commit: while written parts follow the recorded ones, syncs the sequence file once for
   * all of them, appends their records to the log in one write and syncs it, then releases their
   * callers. Parts written while a group is being committed form the next group.
   */
  private async commitGroups(appender: Appender): Promise<void> {
    const { data, log } = await appender.files!;
    for (;;) {
      let upTo = appender.recorded;
      const limit = appender.failure?.index ?? appender.parts.length;
      while (upTo < limit && appender.parts[upTo]!.written) upTo += 1;
      if (upTo === appender.recorded) break;
      try {
        await data.datasync();
        const fromStart = appender.rewriteLog;
        const lines = Buffer.from(appender.parts.slice(fromStart ? 0 : appender.recorded, upTo).map(recordLine).join(''));
        const position = fromStart ? 0 : appender.logEnd;
        await writeAllAt(log, lines, position);
        await log.datasync();
        appender.logEnd = position + lines.length;
        appender.rewriteLog = false;
        appender.recorded = upTo;
      } catch (err) {
        this.fail(appender, appender.recorded, err);
        break;
      }
      const waiting = appender.waiters;
      appender.waiters = waiting.filter((waiter) => waiter.index >= upTo);
      for (const waiter of waiting) if (waiter.index < upTo) waiter.resolve();
    }
    appender.committing = null;
  }

  private async readSequence(dir: string): Promise<StoredSequence> {
    try {
      return { ...parseSequenceLog(await readFile(join(dir, SEQUENCE_LOG))), rewriteLog: false };
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
    try {
      const parts = JSON.parse(await readFile(join(dir, LEGACY_SEQUENCE_INDEX), 'utf8')) as SequencedPart[];
      return { parts, logEnd: 0, rewriteLog: true };
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return { parts: [], logEnd: 0, rewriteLog: false };
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
      const sequenced = sequence[part.partNumber - 1];
      const range: PartSource | undefined = sequenced && { kind: 'range', start: starts.get(part.partNumber)!, size: sequenced.size, etag: sequenced.etag };
      let source: PartSource | undefined = range;
      try {
        const { size } = await stat(path);
        // The part's own file is the newer upload and wins, unless it holds the very bytes of the
        // range (a part sent again after a crash kept its caller from learning it was stored):
        // then the range keeps the completion a rename instead of a copy.
        if (!range || range.size !== size || (await fileDigest(path)) !== range.etag) source = { kind: 'file', path, size };
      } catch (err) {
        if (!isErrno(err, 'ENOENT')) throw err;
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

async function fileDigest(path: string): Promise<string> {
  const hash = contentDigest();
  for await (const chunk of createReadStream(path, { highWaterMark: COPY_CHUNK }) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest().toString('hex');
}
