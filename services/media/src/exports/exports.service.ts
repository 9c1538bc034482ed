import { createHash, randomUUID } from 'node:crypto';
import { BadRequestException, HttpException, InternalServerErrorException, NotFoundException, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import { type Caller, errorBody, type ObjectStorage, type SignedInCaller, type TimelineAccess } from '@timeliner/platform';
import { hidden, requireView } from '../access/timeline-access.js';
import { isUuid } from '../ids.js';
import { Media } from '../media/media.entity.js';
import { LINK_EXPIRED, type ServedObject } from '../media/media.service.js';
import type { MediaUrlSigner } from '../media/media-urls.js';
import { Export } from './export.entity.js';
import type { ExportQueue } from './export-queue.js';
import { type ExportPendingDto, type ExportRequestDto, type ExportResultDto, type ExportStatusDto, exportFileName } from './exports.dto.js';

export const EXPORT_NOT_FOUND = 'Export not found';
export const NO_VIDEOS = 'No videos to export';
export const EXPORT_UNAVAILABLE = 'Export is unavailable, try again later';

/** Where an export's MP4 is stored. */
export const exportKey = (exportId: string, fileName: string): string => `exports/${exportId}/${fileName}`;
/** The signed-URL subject of an export: never a media id, so a token opens exactly one of the two. */
export const exportSubject = (exportId: string): string => `export-${exportId.toLowerCase()}`;
export const exportFileUrl = (exportId: string): string => `/api/exports/${exportId}/file`;

/** How long an export's file is kept (and handed out again for the same content). */
export const EXPORT_TTL_MS = 24 * 3_600_000;
/** Exports one person may have queued or running at once, and one timeline. */
export const MAX_RUNNING_PER_PERSON = 2;
export const MAX_RUNNING_PER_TIMELINE = 3;
/** An export queued or running for longer than this is stuck, not running: it no longer counts. */
const RUNNING_WINDOW_MS = 3_600_000;

const contentKeyOf = (maxHeight: number, mediaIds: string[]): string => createHash('sha256').update(`${maxHeight}:${mediaIds.join(',')}`).digest('hex');

/** Deletes exports' files, then their rows (a failed deletion leaves the rows to try again). */
export async function deleteExports(manager: EntityManager, storage: ObjectStorage, rows: Array<{ id: string }>): Promise<void> {
  for (const { id } of rows) await storage.deletePrefix(`exports/${id}/`);
  if (rows.length > 0) await manager.query('DELETE FROM exports WHERE id = ANY($1::uuid[])', [rows.map((r) => r.id)]);
}

export interface ExportsOptions {
  /** How long POST /export waits for the worker before answering 202; default 120 s. */
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

  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: ObjectStorage,
    private readonly access: TimelineAccess,
    private readonly queue: ExportQueue,
    private readonly urls: MediaUrlSigner,
    private readonly logger: Logger,
    options: ExportsOptions = {},
  ) {
    this.waitMs = options.waitMs ?? 120_000;
    this.pollMs = options.pollMs ?? 250;
  }

  private repo() {
    return this.dataSource.getRepository(Export);
  }

  async create(caller: SignedInCaller, timelineId: string, dto: ExportRequestDto, signal?: AbortSignal): Promise<ExportAnswer> {
    await requireView(this.access, caller, timelineId);
    const timeline = timelineId.toLowerCase();
    const videos = await this.dataSource.getRepository(Media).find({
      select: { id: true },
      where: { timelineId: timeline, mediaType: 'video', status: 'completed' },
      order: { position: 'ASC', uploadedAt: 'ASC', id: 'ASC' },
      take: 1000,
    });
    if (videos.length === 0) throw new BadRequestException(NO_VIDEOS);
    const maxHeight = dto.options?.quality === '720p' ? 720 : 1080;
    const fileName = exportFileName(dto.options?.title);
    const contentKey = contentKeyOf(maxHeight, videos.map((v) => v.id));

    // One decision at a time per person, so two tabs cannot both pass the limit.
    const decided = await this.dataSource.transaction(async (manager): Promise<{ reuse: string } | { row: Export }> => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`export:${caller.userId}`]);
      // The same videos at the same size under the same name: that file, made or in the making.
      const [same] = await manager.query(
        `SELECT id, status FROM exports
          WHERE timeline_id = $1 AND content_key = $2 AND file_name = $3 AND created_at > $4
            AND (status = 'completed' OR (status IN ('queued', 'processing') AND created_at > $5))
          ORDER BY created_at DESC LIMIT 1`,
        [timeline, contentKey, fileName, new Date(Date.now() - EXPORT_TTL_MS), new Date(Date.now() - RUNNING_WINDOW_MS)],
      ) as Array<{ id: string; status: string }>;
      if (same) return { reuse: same.id };
      const [running] = await manager.query(
        `SELECT count(*) FILTER (WHERE requested_by = $1)::int AS mine, count(*) FILTER (WHERE timeline_id = $2)::int AS timeline
           FROM exports WHERE status IN ('queued', 'processing') AND created_at > $3 AND (requested_by = $1 OR timeline_id = $2)`,
        [caller.userId, timeline, new Date(Date.now() - RUNNING_WINDOW_MS)],
      ) as Array<{ mine: number; timeline: number }>;
      if (running!.mine >= MAX_RUNNING_PER_PERSON) throw tooManyExports(`You have ${running!.mine} exports in progress; wait for one to finish`);
      if (running!.timeline >= MAX_RUNNING_PER_TIMELINE) throw tooManyExports('This timeline is being exported already; try again when that export has finished');
      const row = manager.create(Export, {
        id: randomUUID(), timelineId: timeline, requestedBy: caller.userId, status: 'queued', objectKey: null, fileName, maxHeight, contentKey, error: null, completedAt: null,
      });
      await manager.insert(Export, row);
      return { row };
    });
    if ('reuse' in decided) return this.wait(decided.reuse, signal);
    const { row } = decided;
    try {
      await this.queue.enqueue({ exportId: row.id, timelineId: timeline, mediaIds: videos.map((v) => v.id), fileName: row.fileName });
    } catch (err) {
      this.logger.error({ err, exportId: row.id }, 'could not queue the export');
      await this.repo().update({ id: row.id }, { status: 'error', error: 'The export could not be queued.' });
      throw new ServiceUnavailableException(EXPORT_UNAVAILABLE);
    }
    return this.wait(row.id, signal);
  }

  /** Deletes the exports past their time, files first; what this sweep removed. */
  async sweep(now = new Date()): Promise<{ exportsDeleted: number }> {
    const expired: Array<{ id: string }> = await this.dataSource.query('SELECT id FROM exports WHERE created_at < $1 ORDER BY created_at LIMIT 500', [new Date(now.getTime() - EXPORT_TTL_MS)]);
    await deleteExports(this.dataSource.manager, this.storage, expired);
    return { exportsDeleted: expired.length };
  }

  /** Polls the row until the worker finishes it or the wait runs out. */
  private async wait(exportId: string, signal?: AbortSignal): Promise<ExportAnswer> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const row = await this.repo().findOneByOrFail({ id: exportId });
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
    const row = await this.repo().findOneBy({ id: exportId.toLowerCase() });
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
      row = await this.repo().findOneBy({ id: exportId.toLowerCase() });
      if (!row) throw new NotFoundException(EXPORT_NOT_FOUND);
      signed = { token: access, secondsLeft };
    } else {
      try {
        if (!isUuid(exportId)) throw hidden(caller, EXPORT_NOT_FOUND);
        row = await this.repo().findOneBy({ id: exportId.toLowerCase() });
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
