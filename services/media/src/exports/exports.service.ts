import { randomUUID } from 'node:crypto';
import { BadRequestException, InternalServerErrorException, NotFoundException, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { Caller, ObjectStorage, SignedInCaller, TimelineAccess } from '@timeliner/platform';
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

    const row = this.repo().create({
      id: randomUUID(),
      timelineId: timeline,
      requestedBy: caller.userId,
      status: 'queued',
      objectKey: null,
      fileName: exportFileName(dto.options?.title),
      maxHeight: dto.options?.quality === '720p' ? 720 : 1080,
      error: null,
      completedAt: null,
    });
    await this.repo().insert(row);
    try {
      await this.queue.enqueue({ exportId: row.id, timelineId: timeline, mediaIds: videos.map((v) => v.id), fileName: row.fileName });
    } catch (err) {
      this.logger.error({ err, exportId: row.id }, 'could not queue the export');
      await this.repo().update({ id: row.id }, { status: 'error', error: 'The export could not be queued.' });
      throw new ServiceUnavailableException(EXPORT_UNAVAILABLE);
    }
    return this.wait(row.id, signal);
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
