import { BadRequestException } from '@nestjs/common';
import type { MultipartFile } from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { type ObjectStorage, type SignedInCaller, type TimelineAccess, type Transactions } from '@timeliner/platform';
import { requireEdit, UPLOADERS_ONLY } from '../access/timeline-access.js';
import type { Media } from '../media/media.entity.js';
import { originalKey } from '../storage/object-keys.js';
import { assertAcceptedClaim, cleanOriginalName, FileTooLargeError, MAX_UPLOAD_BYTES, UnsupportedMediaError } from './file-acceptance.js';
import { SNIFF_BYTES, sniff } from './sniff.js';
import { type StorageQuota, StorageQuotaExceededException } from '../storage/storage-quota.js';
import type { UploadCompletion } from './upload-completion.js';

/** Room for the multipart framing around a file of the largest size. */
const FORM_OVERHEAD = 1024 * 1024;

/** The spec's one-call uploads: a multipart form whose `video` (or `media`) field holds one file. */
export const SIMPLE_UPLOAD_ROUTES = new Set(['/api/timelines/:id/videos', '/api/timelines/:id/media']);

/**
 * `POST /api/timelines/{id}/videos` (field `video`) and `/media` (field `media`): the file streams
 * straight into storage (no buffering, no temporary file), after its claimed type and name pass
 * the spec's rules and its first bytes are a video or image format. Over 2 GB, the put fails and
 * nothing is kept.
 */
export class SimpleUploads {
  constructor(
    private readonly transactions: Transactions,
    private readonly storage: ObjectStorage,
    private readonly access: TimelineAccess,
    private readonly completion: UploadCompletion,
    private readonly logger: Logger,
    private readonly quota: StorageQuota,
  ) {}

  async upload(caller: SignedInCaller, timelineId: string, field: 'video' | 'media', request: FastifyRequest): Promise<Media> {
    await requireEdit(this.access, caller, timelineId, { forbidden: UPLOADERS_ONLY });
    await this.completion.assertCanUpload(caller.userId);
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES + FORM_OVERHEAD) throw new FileTooLargeError();
    // Refused before reading when the form cannot fit; else the file is cut off once it passes what is left.
    const usage = await this.quota.usage(caller.userId);
    if (usage.remainingBytes === 0 || (Number.isFinite(declared) && declared > usage.remainingBytes + FORM_OVERHEAD)) {
      throw new StorageQuotaExceededException(usage, Number.isFinite(declared) ? Math.max(0, declared - FORM_OVERHEAD) || declared : undefined);
    }
    if (!request.isMultipart()) throw new BadRequestException(`Send a multipart form with the file in the '${field}' field`);

    let part: MultipartFile | undefined;
    try {
      part = await request.file({ limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: 1, fields: 10, parts: 20, fieldSize: 1024 }, throwFileSizeLimit: false });
    } catch (err) {
      throw new BadRequestException(`Send a multipart form with the file in the '${field}' field`, { cause: err });
    }
    if (!part || part.fieldname !== field) {
      part?.file.resume();
      throw new BadRequestException(`Send a multipart form with the file in the '${field}' field`);
    }
    const originalName = cleanOriginalName(part.filename || 'upload');
    assertAcceptedClaim(part.mimetype ?? '', originalName);

    const chunks = (part.file as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    const headChunks: Buffer[] = [];
    let headSize = 0;
    while (headSize < SNIFF_BYTES) {
      const next = await chunks.next();
      if (next.done) break;
      headChunks.push(next.value);
      headSize += next.value.length;
    }
    const head = Buffer.concat(headChunks);
    if (head.length === 0) throw new BadRequestException('The file is empty');
    const found = sniff(head.subarray(0, SNIFF_BYTES));
    if (!found.accepted) throw new UnsupportedMediaError(found.mime, originalName);

    const mediaId = randomUUID();
    const key = originalKey(mediaId);
    let size = 0;
    const limit = (): void => {
      if (size > MAX_UPLOAD_BYTES) throw new FileTooLargeError();
      if (size > usage.remainingBytes) throw new StorageQuotaExceededException(usage);
    };
    const counted = async function* (): AsyncGenerator<Buffer> {
      size += head.length;
      limit();
      yield head;
      for (;;) {
        const next = await chunks.next();
        if (next.done) return;
        size += next.value.length;
        limit();
        yield next.value;
      }
    };
    try {
      await this.storage.put(key, Readable.from(counted()), { contentType: found.mime });
    } catch (err) {
      await this.storage.delete(key).catch(() => undefined);
      throw err;
    }
    if (part.file.truncated) {
      await this.storage.delete(key).catch(() => undefined);
      throw new FileTooLargeError();
    }

    let media: Media;
    try {
      media = await this.transactions.run(async (manager) => {
        // Uploads of one person finishing at once: the last to claim the space may find it gone.
        await this.quota.claim(manager, caller.userId, size);
        return this.completion.record(manager, { mediaId, timelineId: timelineId.toLowerCase(), uploaderId: caller.userId, originalName, mimeType: found.mime, size, requestId: caller.requestId });
      });
    } catch (err) {
      await this.storage.delete(key).catch(() => undefined);
      throw err;
    }
    await this.completion.announce(media, caller.requestId);
    this.logger.debug({ mediaId, size }, 'stored a simple upload');
    return media;
  }
}
