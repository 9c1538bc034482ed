import { BadRequestException, ConflictException, GoneException, HttpException, HttpStatus, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import {
  AUTHENTICATION_REQUIRED, type Caller, cleanName, isUuid, NUL_MESSAGE, MultipartUploadNotFoundError, type ObjectStorage, type MultipartPart, type TimelineAccess, type Transactions,
} from '@timeliner/platform';
import { requireEdit, UPLOADERS_ONLY } from '../access/timeline-access.js';
import type { MediaRepository } from '../media/media.repository.js';
import { MEDIA_ROOT, newTailKey, originalKey, uploadPrefix } from '../storage/object-keys.js';
import { assertAcceptedClaim, cleanOriginalName, FileTooLargeError, MAX_UPLOAD_BYTES, UnsupportedMediaError } from './file-acceptance.js';
import { SNIFF_BYTES, sniff } from './sniff.js';
import type { UploadCompletion } from './upload-completion.js';
import type { StorageQuota } from '../storage/storage-quota.js';
import type { UploadSession } from './upload-session.entity.js';
import type { SessionAdvance, SessionPosition, UploadSessionRepository } from './upload-session.repository.js';

export const TUS_VERSION = '1.0.0';
export const TUS_EXTENSIONS = 'creation,termination,expiration';
export const TUS_CONTENT_TYPE = 'application/offset+octet-stream';
export const UPLOAD_NOT_FOUND = 'Upload not found';

export interface TusUploadOptions {
  /** Size of each stored part but the last; at least S3's 5 MiB. Default 8 MiB. */
  partSize?: number;
  /** An upload without progress for this long expires (UPLOAD_EXPIRY_HOURS); the sweep then deletes what it stored. Default 24 h. */
  expiryMs?: number;
  /** Uploads one user may have in progress at once. Default 20. */
  maxActivePerUser?: number;
  /** Parts of one request being stored at once while the next one fills. Default 2. */
  partsInFlight?: number;
}

export interface UploadState {
  id: string;
  /** The media item the finished upload becomes (chosen at creation). */
  mediaId: string;
  offset: number;
  length: number;
  expiresAt: Date;
}

const MiB = 1024 * 1024;
const MAX_METADATA_LENGTH = 4096;

/** Part buffers are reused: a busy server keeps a few, not one per request ever made. */
class BufferPool {
  private readonly free: Buffer[] = [];
  constructor(private readonly size: number, private readonly keep = 4) {}
  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafe(this.size);
  }
  give(buffer: Buffer): void {
    if (this.free.length < this.keep) this.free.push(buffer);
  }
}

/** tus `Upload-Metadata`: comma-separated `key base64(value)` pairs. */
export function parseUploadMetadata(header: string | undefined): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (!header) return metadata;
  if (header.length > MAX_METADATA_LENGTH) throw new BadRequestException(`Upload-Metadata must be at most ${MAX_METADATA_LENGTH} characters`);
  for (const pair of header.split(',')) {
    const [key, value = '', ...rest] = pair.trim().split(' ');
    if (!key || rest.length > 0 || !/^[\x21-\x7e]+$/.test(key) || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
      throw new BadRequestException('Upload-Metadata must be comma-separated "key base64value" pairs');
    }
    if (Object.hasOwn(metadata, key)) throw new BadRequestException(`Upload-Metadata names ${key} twice`);
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    // As in every body and query (the platform's hostile-input rule): Postgres cannot store a NUL.
    if (decoded.includes('\u0000')) throw new BadRequestException(`Upload-Metadata ${key}: ${NUL_MESSAGE}`);
    metadata[key] = decoded;
  }
  return metadata;
}

const wholeNumber = (value: string | undefined, name: string): number => {
  if (value === undefined || !/^\d{1,16}$/.test(value.trim())) throw new BadRequestException(`${name} must be a whole number of bytes`);
  return Number(value.trim());
};

/**
 * Resumable uploads (tus 1.0: core, creation, termination, expiration) mapped onto a multipart
 * upload of the object store.
 *
 * State lives in `upload_sessions`, so any replica continues any upload. A PATCH body is cut into
 * parts of `partSize` bytes as it streams in: each full part is stored, then recorded (part
 * number and etag) by the same statement that advances the offset, and only if the offset is
 * still the one the request started from. The offset therefore only ever counts durably stored
 * bytes, and two requests racing for one upload cannot both advance it (the loser gets 409). A
 * crash loses at most the part in flight.
 *
 * S3 parts must be at least 5 MiB (but the last), and a tus client may send chunks of any size.
 * What is left at the end of a PATCH that does not end the upload (less than a part) is stored as
 * the session's tail, an object under `uploads/<id>/tail/`, and prepended to the next PATCH's data:
 * nothing is held in memory between requests. Each tail write uses a fresh key, recorded with the
 * offset, so a request that loses a race never overwrites the tail the row points at.
 *
 * Memory per request: `partsInFlight` + 1 part buffers (one filling while the others are stored). The first bytes of the upload are checked against the
 * formats the product accepts (sniff.ts); a mismatch terminates the upload.
 */
export class TusUploads {
  private readonly partSize: number;
  private readonly expiryMs: number;
  private readonly maxActivePerUser: number;
  private readonly partsInFlight: number;
  private readonly buffers: BufferPool;

  constructor(
    private readonly sessions: UploadSessionRepository,
    private readonly media: MediaRepository,
    private readonly transactions: Transactions,
    private readonly storage: ObjectStorage,
    private readonly access: TimelineAccess,
    private readonly completion: UploadCompletion,
    private readonly logger: Logger,
    private readonly quota: StorageQuota,
    options: TusUploadOptions = {},
  ) {
    this.partSize = Math.max(options.partSize ?? 8 * MiB, 5 * MiB);
    this.expiryMs = options.expiryMs ?? 24 * 60 * 60 * 1000;
    this.maxActivePerUser = options.maxActivePerUser ?? 20;
    this.partsInFlight = Math.max(1, Math.floor(options.partsInFlight ?? 2));
    // Enough for two requests at once without allocating.
    this.buffers = new BufferPool(this.partSize, 2 * (this.partsInFlight + 1));
  }

  /** POST: a new upload of `Upload-Length` bytes into the timeline named by the metadata. */
  async create(caller: Caller, headers: { uploadLength?: string; deferLength?: string; metadata?: string }): Promise<UploadState> {
    if (!caller.userId) throw new UnauthorizedException(AUTHENTICATION_REQUIRED);
    if (headers.uploadLength === undefined) throw new BadRequestException('Upload-Length is required (Upload-Defer-Length is not supported)');
    const length = wholeNumber(headers.uploadLength, 'Upload-Length');
    const metadata = parseUploadMetadata(headers.metadata);
    const timelineId = metadata.timelineId?.trim() ?? '';
    if (!timelineId) throw new BadRequestException('Upload-Metadata must name the timelineId');
    if (!metadata.filename?.trim()) throw new BadRequestException('Upload-Metadata must name the filename');
    await requireEdit(this.access, caller, timelineId, { forbidden: UPLOADERS_ONLY });
    await this.completion.assertCanUpload(caller.userId);
    if (length > MAX_UPLOAD_BYTES) throw new FileTooLargeError();
    if (length === 0) throw new BadRequestException('The file is empty');
    const originalName = cleanOriginalName(metadata.filename);
    const declaredType = cleanName(metadata.filetype ?? '').trim().slice(0, 100);
    assertAcceptedClaim(declaredType, originalName);

    if ((await this.sessions.activeCount(caller.userId)) >= this.maxActivePerUser) throw new HttpException(`At most ${this.maxActivePerUser} uploads can be in progress at once`, HttpStatus.TOO_MANY_REQUESTS);
    // The whole length is reserved at creation: uploads in progress together cannot pass the quota.
    await this.quota.check(caller.userId, length);

    const id = randomUUID();
    const mediaId = randomUUID();
    const key = originalKey(mediaId);
    const multipartId = await this.storage.createMultipart(key, { contentType: 'application/octet-stream' });
    const session = this.sessions.build({
      id,
      userId: caller.userId,
      timelineId: timelineId.toLowerCase(),
      mediaId,
      filename: key,
      originalName,
      mimeType: declaredType || 'application/octet-stream',
      totalSize: length,
      receivedBytes: 0,
      totalChunks: Math.ceil(length / this.partSize),
      receivedChunks: 0,
      status: 'active',
      multipartId,
      chunks: [],
      tailKey: null,
      tailSize: 0,
      metadata: { timelineId, filename: cleanName(metadata.filename).slice(0, 1000), ...(declaredType ? { filetype: declaredType } : {}) },
      expiresAt: new Date(Date.now() + this.expiryMs),
    });
    try {
      await this.transactions.run(async (manager) => {
        await this.quota.claim(manager, session.userId, length);
        await this.sessions.insert(manager, session);
      });
    } catch (err) {
      await this.storage.abortMultipart(key, multipartId).catch(() => undefined);
      throw err;
    }
    return { id, mediaId, offset: 0, length, expiresAt: session.expiresAt };
  }

  /** HEAD: how many bytes are stored. An upload that has them all but was not finished (a crash) is finished now. */
  async head(caller: Caller, id: string): Promise<UploadState> {
    let session = await this.load(caller, id);
    if (session.status === 'active' && session.receivedBytes === session.totalSize) {
      await this.finish(session.id, caller.requestId);
      session = await this.load(caller, id);
    }
    return this.stateOf(session);
  }

  /** PATCH: appends the body at `Upload-Offset`. */
  async patch(caller: Caller, id: string, headers: { contentType?: string; uploadOffset?: string; contentLength?: string }, body: Readable): Promise<UploadState> {
    const session = await this.load(caller, id);
    if ((headers.contentType ?? '').split(';')[0]!.trim().toLowerCase() !== TUS_CONTENT_TYPE) {
      throw new HttpException(`Content-Type must be ${TUS_CONTENT_TYPE}`, HttpStatus.UNSUPPORTED_MEDIA_TYPE);
    }
    const offset = wholeNumber(headers.uploadOffset, 'Upload-Offset');
    if (offset !== session.receivedBytes) {
      throw new ConflictException(`Upload-Offset ${offset} does not match the upload's offset ${session.receivedBytes}`);
    }
    if (session.status === 'completed') return this.stateOf(session);
    if (headers.contentLength !== undefined && /^\d+$/.test(headers.contentLength) && offset + Number(headers.contentLength) > session.totalSize) {
      throw new HttpException('The chunk runs past Upload-Length', HttpStatus.PAYLOAD_TOO_LARGE);
    }
    await requireEdit(this.access, caller, session.timelineId, { forbidden: UPLOADERS_ONLY });

    const buffers = Array.from({ length: this.partsInFlight + 1 }, () => this.buffers.take());
    try {
      const state = await this.receive(session, body, buffers);
      if (state.receivedBytes === session.totalSize) await this.finish(session.id, caller.requestId);
      return { id: session.id, mediaId: session.mediaId, offset: state.receivedBytes, length: session.totalSize, expiresAt: state.expiresAt };
    } finally {
      for (const buffer of buffers) this.buffers.give(buffer);
    }
  }

  /** DELETE: the upload and everything stored for it go. A finished upload stays (it is media now). */
  async terminate(caller: Caller, id: string): Promise<void> {
    const session = await this.load(caller, id);
    if (session.status !== 'active') return;
    await this.discard(session, 'cancelled');
  }

  /**
   * Expired sessions: abort the multipart upload, delete the tail, mark them expired. Then
   * multipart uploads no session owns that are older than a day (a crash between creating one and
   * recording it), where the store can list them. Then stored uploads whose finishing or
   * processing job was interrupted. Safe to run on every replica at once.
   */
  async sweep(now = new Date()): Promise<{ expired: number; orphans: number; finished: number; requeued: number }> {
    let expired = 0;
    for (const id of await this.sessions.expired(now)) {
      const session = await this.sessions.find(id);
      if (!session || session.status !== 'active' || session.expiresAt >= now) continue;
      if (await this.discard(session, 'expired', now)) expired += 1;
    }

    let orphans = 0;
    const dayAgo = new Date(now.getTime() - 24 * 60 * 60 * 1000);
    try {
      for await (const upload of this.storage.listMultipartUploads({ prefix: MEDIA_ROOT, initiatedBefore: dayAgo })) {
        if (await this.sessions.ownsMultipart(upload.uploadId)) continue;
        await this.storage.abortMultipart(upload.key, upload.uploadId);
        orphans += 1;
      }
    } catch (err) {
      // s3rver, for one, cannot list multipart uploads; S3 lifecycle rules cover real buckets.
      this.logger.warn({ err }, 'could not list multipart uploads; orphaned uploads were not swept');
    }

    let finished = 0;
    for (const id of await this.sessions.unfinished(new Date(now.getTime() - 60_000))) {
      try {
        await this.finish(id);
        finished += 1;
      } catch (err) {
        this.logger.error({ err, sessionId: id }, 'could not finish a fully received upload');
      }
    }

    let requeued = 0;
    for (const media of await this.media.neverQueued(new Date(now.getTime() - 60_000))) if (await this.completion.queueProcessing(media)) requeued += 1;
    return { expired, orphans, finished, requeued };
  }

  // ---------------------------------------------------------------------------------------------

  private stateOf(session: UploadSession): UploadState {
    return { id: session.id, mediaId: session.mediaId, offset: session.receivedBytes, length: session.totalSize, expiresAt: session.expiresAt };
  }

  /** The caller's own upload; anyone else's is not found, an expired one is gone (410). */
  private async load(caller: Caller, id: string): Promise<UploadSession> {
    if (!caller.userId) throw new UnauthorizedException(AUTHENTICATION_REQUIRED);
    if (!isUuid(id)) throw new NotFoundException(UPLOAD_NOT_FOUND);
    const session = await this.sessions.find(id.toLowerCase());
    if (!session || session.userId !== caller.userId || session.status === 'cancelled') throw new NotFoundException(UPLOAD_NOT_FOUND);
    if (session.status === 'expired' || (session.status === 'active' && session.expiresAt.getTime() <= Date.now())) {
      throw new GoneException('This upload has expired; start it again');
    }
    return session;
  }

  /**
   * Streams the body into parts. Returns the durable state reached; throws 409 when another
   * request moved the upload meanwhile, 413 past the declared length, 415 for content that is not
   * an accepted video or image. A body cut short by the client is stored as far as it got.
   *
   * While up to `partsInFlight` full parts are being stored (written, synced), the body keeps
   * flowing into the next buffer. Parts are stored concurrently but recorded strictly in order,
   * each by the statement that advances the offset past it, so the offset never skips a part that
   * failed.
   */
  private async receive(session: UploadSession, body: Readable, buffers: Buffer[]): Promise<{ receivedBytes: number; expiresAt: Date }> {
    const { id, totalSize: total } = session;
    const key = session.filename;
    const multipartId = session.multipartId!;
    const sniffBytes = Math.min(SNIFF_BYTES, total);
    const partSize = this.partSize;
    /** Parts recorded, and parts handed to storing. */
    let parts = session.receivedChunks;
    let handed = parts;
    let durable = session.receivedBytes;
    let tailKey = session.tailKey;
    let mimeType = session.mimeType;
    let checked = durable >= sniffBytes;
    let expiresAt = session.expiresAt;
    const free = [...buffers];
    let buffer = free.pop()!;
    let fill = 0;
    /** Parts being stored, oldest first, with the buffer each one holds. */
    const flights: Array<{ done: Promise<void>; buffer: Buffer }> = [];
    /** The recording of the last part handed over: the next one is recorded after it. */
    let recorded: Promise<void> = Promise.resolve();
    /** A failure of a part in flight, seen by the reading loop without waiting for it. */
    const storeFailures: unknown[] = [];

    if (session.tailSize > 0 && tailKey) {
      for await (const chunk of (await this.storage.get(tailKey)) as AsyncIterable<Buffer>) {
        if (fill + chunk.length > session.tailSize) throw new Error(`Tail of upload ${id} is longer than recorded`);
        chunk.copy(buffer, fill);
        fill += chunk.length;
      }
      if (fill !== session.tailSize) throw new Error(`Tail of upload ${id} is shorter than recorded`);
    }

    /** Moves the offset to `next` with `record` (a part or the tail), only from where this request found it. */
    const advance = async (next: number, record: (from: SessionPosition, to: SessionAdvance) => Promise<boolean>): Promise<void> => {
      const expires = new Date(Date.now() + this.expiryMs);
      if (!(await record({ receivedBytes: durable, receivedChunks: parts }, { receivedBytes: next, mimeType, expiresAt: expires }))) {
        throw new ConflictException('The upload was changed by another request; ask for its offset again');
      }
      durable = next;
      expiresAt = expires;
    };
    // Awaited, not left running: a delete still in flight when the next tail is written races it
    // on stores that keep keys as files in directories (s3rver removes the emptied directory the
    // new tail is being written into). A failure only leaves a stray tail for the sweep.
    const dropOldTail = async (old: string | null): Promise<void> => {
      if (old) await this.storage.delete(old).catch((err: unknown) => this.logger.warn({ err, key: old }, 'could not delete an upload tail'));
    };
    /** Stores the part now and records it once the part before it is recorded. */
    const storePart = (data: Buffer, partNumber: number): Promise<void> => {
      const storing = this.storage.uploadPart(key, multipartId, partNumber, data, data.length);
      const previous = recorded;
      const done = (async () => {
        const part: MultipartPart = await storing;
        await previous;
        await advance((partNumber - 1) * partSize + data.length, (from, to) => this.sessions.recordPart(id, from, to, part));
        parts += 1;
        const old = tailKey;
        tailKey = null;
        await dropOldTail(old);
      })();
      // Storing settles before the part counts as done, so its buffer is never refilled early.
      recorded = done.catch(async (error: unknown) => {
        await storing.catch(() => undefined);
        throw error;
      });
      return recorded;
    };
    /** Waits for the oldest part in flight and takes its buffer back. */
    const land = async (): Promise<void> => {
      const flight = flights.shift()!;
      await flight.done;
      free.push(flight.buffer);
    };
    /** Hands the full buffer to storing and goes on filling a free one. */
    const handOver = async (): Promise<void> => {
      handed += 1;
      const done = storePart(buffer.subarray(0, fill), handed).catch((error: unknown) => {
        storeFailures.push(error);
      });
      flights.push({ done, buffer });
      fill = 0;
      if (free.length === 0) await land();
      buffer = free.pop()!;
      if (storeFailures.length > 0) throw storeFailures[0];
    };
    const check = async (): Promise<void> => {
      const found = sniff(buffer.subarray(0, sniffBytes));
      if (!found.accepted) {
        await this.discard(session, 'cancelled');
        throw new UnsupportedMediaError(found.mime, session.originalName);
      }
      mimeType = found.mime;
      checked = true;
    };

    const chunks = (body as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
    try {
      for (;;) {
        let next: IteratorResult<Buffer | string>;
        try {
          next = await chunks.next();
        } catch {
          // The client went away mid-body: keep what arrived (tus: store as much as possible).
          break;
        }
        if (next.done) break;
        if (storeFailures.length > 0) throw storeFailures[0];
        let data = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
        if (handed * partSize + fill + data.length > total) {
          body.destroy();
          throw new HttpException('The chunk runs past Upload-Length', HttpStatus.PAYLOAD_TOO_LARGE);
        }
        while (data.length > 0) {
          const n = Math.min(data.length, partSize - fill);
          data.copy(buffer, fill, 0, n);
          fill += n;
          data = data.subarray(n);
          if (!checked && handed === 0 && fill >= sniffBytes) await check();
          if (fill === partSize) await handOver();
        }
      }
    } finally {
      // Whatever happens, no part is left being written from a buffer the pool hands out again.
      while (flights.length > 0) await land();
    }
    if (storeFailures.length > 0) throw storeFailures[0];

    const position = handed * partSize + fill;
    if (position === total) {
      if (fill > 0) await storePart(buffer.subarray(0, fill), handed + 1);
    } else if (position > durable) {
      // Less than a part that does not end the upload: the tail, under a fresh key.
      const fresh = newTailKey(id);
      await this.storage.put(fresh, buffer.subarray(0, fill), { size: fill, contentType: 'application/octet-stream' });
      try {
        await advance(position, (from, to) => this.sessions.recordTail(id, from, to, fresh, fill));
      } catch (err) {
        await this.storage.delete(fresh).catch(() => undefined);
        throw err;
      }
      await dropOldTail(tailKey);
      tailKey = fresh;
    }
    return { receivedBytes: durable, expiresAt };
  }

  /**
   * Completes the multipart upload and turns the session into media, once: the session's status
   * flips in the transaction that inserts the media row and its event, so concurrent finishers
   * (a PATCH, a HEAD after a crash, the sweep) produce one media item.
   */
  private async finish(sessionId: string, requestId?: string): Promise<void> {
    const session = await this.sessions.find(sessionId);
    if (!session || session.status !== 'active' || session.receivedBytes !== session.totalSize) return;
    const parts = [...session.chunks].sort((a, b) => a.partNumber - b.partNumber);
    try {
      await this.storage.completeMultipart(session.filename, session.multipartId!, parts);
    } catch (err) {
      // Completed already by a finisher that died before recording it.
      if (!(err instanceof MultipartUploadNotFoundError)) throw err;
    }
    const stored = await this.storage.stat(session.filename);
    if (!stored || stored.size !== session.totalSize) throw new Error(`Upload ${sessionId} completed with ${stored?.size ?? 'no'} bytes of ${session.totalSize}`);

    const media = await this.transactions.run(async (manager) => {
      if (!(await this.sessions.complete(manager, sessionId))) return null;
      return this.completion.record(manager, {
        mediaId: session.mediaId,
        timelineId: session.timelineId,
        uploaderId: session.userId,
        originalName: session.originalName,
        mimeType: session.mimeType,
        size: session.totalSize,
        ...(requestId ? { requestId } : {}),
      });
    });
    await this.storage.deletePrefix(uploadPrefix(sessionId)).catch((err: unknown) => this.logger.warn({ err, sessionId }, 'could not delete upload leftovers'));
    if (media) await this.completion.announce(media, requestId);
  }

  /** Ends an unfinished upload: its multipart upload and tail go, the row says why. */
  private async discard(session: UploadSession, status: 'cancelled' | 'expired', before?: Date): Promise<boolean> {
    const ended = await this.sessions.end(session.id, status, before);
    if (session.multipartId) await this.storage.abortMultipart(session.filename, session.multipartId).catch((err: unknown) => this.logger.warn({ err, sessionId: session.id }, 'could not abort a multipart upload'));
    await this.storage.deletePrefix(uploadPrefix(session.id)).catch((err: unknown) => this.logger.warn({ err, sessionId: session.id }, 'could not delete an upload tail'));
    return ended;
  }
}
