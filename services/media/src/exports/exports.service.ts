import { createHash, randomUUID } from 'node:crypto';
import { BadRequestException, HttpException, InternalServerErrorException, NotFoundException, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import {
  type Caller, describeWait, describeWindow, errorBody, isUuid, type ObjectStorage, PersonLimiter, type SignedInCaller, type TimelineAccess, type Transactions,
} from '@timeliner/platform';
import { hidden, requireView } from '../access/timeline-access.js';
import type { MediaRepository } from '../media/media.repository.js';
import { LINK_EXPIRED, type ServedObject } from '../media/media.service.js';
import type { MediaUrlSigner } from '../media/media-urls.js';
import { exportPrefix } from '../storage/object-keys.js';
import type { Export } from './export.entity.js';
import type { ExportQueue } from './export-queue.js';
import type { ExportRepository } from './exports.repository.js';
import { type ExportPendingDto, type ExportRequestDto, type ExportResultDto, type ExportStatusDto, exportFileName } from './exports.dto.js';

export const EXPORT_NOT_FOUND = 'Export not found';
export const NO_VIDEOS = 'No videos to export';
export const EXPORT_UNAVAILABLE = 'Export is unavailable, try again later';

/** The signed-URL subject of an export: never a media id, so a token opens exactly one of the two. */
export const exportSubject = (exportId: string): string => `export-${exportId.toLowerCase()}`;
export const exportFileUrl = (exportId: string): string => `/api/exports/${exportId}/file`;

/**
 * How long POST /export waits for the worker before answering 202 (the client then asks
 * GET /api/exports/{id}): well inside the gateway's UPSTREAM_TIMEOUT_SECONDS (60), which would
 * otherwise answer 504 for an export still being made.
 */
export const EXPORT_WAIT_MS = 25_000;

/** How long an export's file is kept (and handed out again for the same content). */
export const EXPORT_TTL_MS = 24 * 3_600_000;
/** Exports one person may have queued or running at once, and one timeline. */
export const MAX_RUNNING_PER_PERSON = 2;
export const MAX_RUNNING_PER_TIMELINE = 3;
/** An export queued or running for longer than this is stuck, not running: it no longer counts. */
const RUNNING_WINDOW_MS = 3_600_000;

const contentKeyOf = (maxHeight: number, mediaIds: string[]): string => createHash('sha256').update(`${maxHeight}:${mediaIds.join(',')}`).digest('hex');

/** Deletes exports' files, then their rows (a failed deletion leaves the rows to try again); with `manager`, in its transaction. */
export async function deleteExports(exports: ExportRepository, storage: ObjectStorage, ids: string[], manager?: EntityManager): Promise<void> {
  for (const id of ids) await storage.deletePrefix(exportPrefix(id));
  await exports.delete(ids, manager);
}

export interface ExportLimits {
  perHour: number;
  perDay: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = { perHour: 10, perDay: 30 };

export interface ExportsOptions {
  /** New exports one person may start per hour and per day (EXPORTS_PER_HOUR, EXPORTS_PER_DAY; default 10 and 30). */
  limits?: ExportLimits;
  /** How long POST /export waits for the worker before answering 202; default EXPORT_WAIT_MS. */
  waitMs?: number;
  /** Poll period of the export row while waiting; default 250 ms. */
  pollMs?: number;
}

export type ExportAnswer = { status: 200; body: ExportResultDto } | { status: 202; body: ExportPendingDto };

/**
 * Exports of a timeline's completed videos, in timeline order, as one MP4: the API creates the
 * row, queues `MediaJobs.Export` and waits for the worker; the file is served for a signed URL.
 */
export class ExportsService {
  private readonly waitMs: number;
  private readonly pollMs: number;
  /** New exports per person: each costs minutes of a worker, whoever's timeline it is. */
  private readonly limiter: PersonLimiter;

  constructor(
    private readonly exports: ExportRepository,
    private readonly media: MediaRepository,
    private readonly transactions: Transactions,
    private readonly storage: ObjectStorage,
    private readonly access: TimelineAccess,
    private readonly queue: ExportQueue,
    private readonly urls: MediaUrlSigner,
    private readonly logger: Logger,
    options: ExportsOptions = {},
  ) {
    this.waitMs = options.waitMs ?? EXPORT_WAIT_MS;
    this.pollMs = options.pollMs ?? 250;
    const limits = options.limits ?? DEFAULT_EXPORT_LIMITS;
    this.limiter = new PersonLimiter('export', [{ max: limits.perHour, windowSeconds: 3_600 }, { max: limits.perDay, windowSeconds: 86_400 }], (limit, retryAfter) =>
      `You can start at most ${limit.max} exports ${describeWindow(limit.windowSeconds)}; try again ${describeWait(retryAfter)}`);
  }

  async create(caller: SignedInCaller, timelineId: string, dto: ExportRequestDto, signal?: AbortSignal): Promise<ExportAnswer> {
    await requireView(this.access, caller, timelineId);
    const timeline = timelineId.toLowerCase();
    const videos = await this.media.completedVideoIds(timeline);
    if (videos.length === 0) throw new BadRequestException(NO_VIDEOS);
    const maxHeight = dto.options?.quality === '720p' ? 720 : 1080;
    const fileName = exportFileName(dto.options?.title);
    const contentKey = contentKeyOf(maxHeight, videos);

    // One decision at a time per person, so two tabs cannot both pass the limit.
    const decided = await this.transactions.run(async (manager): Promise<{ reuse: string } | { row: Export }> => {
      await this.exports.lockPerson(manager, caller.userId);
      // The same videos at the same size, whoever asked and under whatever name: that file, made or
      // in the making. A finished one under another name is handed out under the name asked for (a
      // row of its own, sharing the file and its expiry); one in the making, under its own.
      const same = await this.exports.same(manager, timeline, contentKey, fileName, new Date(Date.now() - EXPORT_TTL_MS), new Date(Date.now() - RUNNING_WINDOW_MS));
      if (same && (same.fileName === fileName || same.status !== 'completed')) return { reuse: same.id };
      if (same) {
        const id = randomUUID();
        await this.exports.insertCopy(manager, { id, timelineId: timeline, requestedBy: caller.userId, fileName, maxHeight, contentKey }, same);
        return { reuse: id };
      }
      // Only an export that makes a new file counts.
      await this.limiter.take(manager, caller.userId);
      const running = await this.exports.running(manager, caller.userId, timeline, new Date(Date.now() - RUNNING_WINDOW_MS));
      if (running.mine >= MAX_RUNNING_PER_PERSON) throw tooManyExports(`You have ${running.mine} exports in progress; wait for one to finish`);
      if (running.timeline >= MAX_RUNNING_PER_TIMELINE) throw tooManyExports('This timeline is being exported already; try again when that export has finished');
      return { row: await this.exports.insertQueued(manager, { id: randomUUID(), timelineId: timeline, requestedBy: caller.userId, fileName, maxHeight, contentKey }) };
    });
    if ('reuse' in decided) return this.wait(decided.reuse, signal);
    const { row } = decided;
    try {
      await this.queue.enqueue({ exportId: row.id, timelineId: timeline, mediaIds: videos, fileName: row.fileName });
    } catch (err) {
      this.logger.error({ err, exportId: row.id }, 'could not queue the export');
      await this.exports.setStatus(row.id, 'error', 'The export could not be queued.');
      throw new ServiceUnavailableException(EXPORT_UNAVAILABLE);
    }
    return this.wait(row.id, signal);
  }

  /** Deletes the exports past their time, files first; what this sweep removed. */
  async sweep(now = new Date()): Promise<{ exportsDeleted: number }> {
    const expired = await this.exports.olderThan(new Date(now.getTime() - EXPORT_TTL_MS), 500);
    await deleteExports(this.exports, this.storage, expired);
    return { exportsDeleted: expired.length };
  }

  /** Polls the row until the worker finishes it or the wait runs out. */
  private async wait(exportId: string, signal?: AbortSignal): Promise<ExportAnswer> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const row = await this.exports.find(exportId);
      if (!row) throw new Error(`Export ${exportId} is gone`);
      if (row.status === 'completed') return { status: 200, body: this.result(row) };
      if (row.status === 'error') throw new InternalServerErrorException(`Export failed: ${row.error ?? 'unknown error'}`);
      if (Date.now() + this.pollMs > deadline || signal?.aborted) return { status: 202, body: { exportId: row.id, status: row.status } };
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  private result(row: Export): ExportResultDto {
    return { downloadUrl: this.urls.sign(exportFileUrl(row.id), exportSubject(row.id)), fileName: row.fileName, exportId: row.id };
  }

  /**
   * Where an export stands, for a caller who may view its timeline: what a client that was
   * answered 202 asks until the export is completed (with its download URL) or failed.
   */
  async status(caller: Caller, exportId: string): Promise<ExportStatusDto> {
    if (!isUuid(exportId)) throw hidden(caller, EXPORT_NOT_FOUND);
    const row = await this.exports.find(exportId.toLowerCase());
    if (!row) throw hidden(caller, EXPORT_NOT_FOUND);
    await requireView(this.access, caller, row.timelineId, EXPORT_NOT_FOUND);
    return {
      exportId: row.id,
      status: row.status,
      fileName: row.fileName,
      ...(row.status === 'completed' ? { downloadUrl: this.result(row).downloadUrl } : {}),
      ...(row.status === 'error' ? { error: row.error ?? 'unknown error' } : {}),
    };
  }

  /**
   * The finished MP4, for a valid token of the export, or for a caller who may view its timeline.
   * An invalid token sent by anyone else: 401 Link expired.
   */
  async file(caller: Caller, exportId: string, access?: string): Promise<ServedObject> {
    const secondsLeft = access !== undefined && isUuid(exportId) ? this.urls.verify(exportSubject(exportId), access) : null;
    let row: Export | null;
    let signed: ServedObject['signed'];
    if (access !== undefined && secondsLeft !== null) {
      row = await this.exports.find(exportId.toLowerCase());
      if (!row) throw new NotFoundException(EXPORT_NOT_FOUND);
      signed = { token: access, secondsLeft };
    } else {
      try {
        if (!isUuid(exportId)) throw hidden(caller, EXPORT_NOT_FOUND);
        row = await this.exports.find(exportId.toLowerCase());
        if (!row) throw hidden(caller, EXPORT_NOT_FOUND);
        await requireView(this.access, caller, row.timelineId, EXPORT_NOT_FOUND);
      } catch (err) {
        if (access !== undefined && (err instanceof UnauthorizedException || err instanceof NotFoundException)) throw new UnauthorizedException(LINK_EXPIRED);
        throw err;
      }
    }
    if (row.status !== 'completed' || !row.objectKey) throw new NotFoundException('The export is not ready');
    const info = await this.storage.stat(row.objectKey);
    if (!info) throw new NotFoundException('The file is not available');
    return {
      key: row.objectKey, info, contentType: 'video/mp4', immutable: true, downloadName: row.fileName, disposition: 'attachment',
      ...(signed ? { signed } : {}),
    };
  }
}

const tooManyExports = (message: string) => new HttpException(errorBody(429, message), 429);
