import { randomUUID } from 'node:crypto';
import { GoneException, NotFoundException, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import type { Logger } from 'pino';
import { type Caller, isUuid, type ObjectStorage, type SignedInCaller, TooManyRequestsException, type Transactions } from '@timeliner/platform';
import { LINK_EXPIRED, type ServedObject } from '../media/media.service.js';
import type { MediaUrlSigner } from '../media/media-urls.js';
import { dataExportPrefix } from '../storage/object-keys.js';
import type { DataExport } from './data-export.entity.js';
import type { DataExportQueue } from './data-export-queue.js';
import type { DataExportRepository } from './data-exports.repository.js';
import { type DataExportDto, type DataExportStateDto, mapDataExport } from './data-exports.dto.js';

export const DATA_EXPORT_NOT_FOUND = 'Export not found';
export const DATA_EXPORT_EXPIRED = 'This download has expired; you can start a new export';
export const DATA_EXPORT_UNAVAILABLE = 'Your data cannot be gathered right now; please try again later';
/** One export a day per person (a failed one does not count). */
export const DATA_EXPORT_INTERVAL_MS = 24 * 3_600_000;
/** An archive still queued or running after this long lost its job: it fails (an archive of the whole 10 GB quota takes minutes). */
export const DATA_EXPORT_STALE_MS = 2 * 3_600_000;
export const DATA_EXPORT_STOPPED = 'The export stopped before it was finished; please start a new one';

/** The signed-URL subject of an archive: never a media or timeline export id, so a token opens exactly one file. */
export const dataExportSubject = (exportId: string): string => `data-export-${exportId.toLowerCase()}`;
export const dataExportFileUrl = (exportId: string): string => `/api/account/data-exports/${exportId}/file`;

/** "29 Nov 2026 at 05:12 UTC": when the next export may start, as the refusal says it. */
export function describeMoment(at: Date): string {
  const day = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return `${day} at ${at.toISOString().slice(11, 16)} UTC`;
}

/**
 * "Download your data": a person asks for an archive of everything they keep here (at most one a
 * day), the media worker builds it (`DataExportProcessor`), the settings page follows its progress
 * and downloads it with a link signed until it expires, seven days after it was made; the sweep
 * then deletes the file.
 */
export class DataExportsService {
  constructor(
    private readonly exports: DataExportRepository,
    private readonly transactions: Transactions,
    private readonly storage: ObjectStorage,
    private readonly queue: DataExportQueue,
    private readonly urls: MediaUrlSigner,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Starts an archive of the caller's data, or answers 429 with when the next may start. */
  async start(caller: SignedInCaller): Promise<DataExportDto> {
    const now = this.now();
    await this.exports.failStale(caller.userId, new Date(now.getTime() - DATA_EXPORT_STALE_MS), DATA_EXPORT_STOPPED);
    const row = await this.transactions.run(async (manager) => {
      await this.exports.lockPerson(manager, caller.userId);
      const last = await this.exports.lastCountedSince(manager, caller.userId, new Date(now.getTime() - DATA_EXPORT_INTERVAL_MS));
      if (last) {
        const next = new Date(last.getTime() + DATA_EXPORT_INTERVAL_MS);
        throw new TooManyRequestsException(
          `You can download your data once a day. You can start a new export on ${describeMoment(next)}.`,
          (next.getTime() - now.getTime()) / 1000,
        );
      }
      return this.exports.insertQueued(manager, { id: randomUUID(), userId: caller.userId, fileName: `timeliner-data-${now.toISOString().slice(0, 10)}.zip` }, now);
    });
    try {
      await this.queue.enqueue({ exportId: row.id, userId: caller.userId });
    } catch (err) {
      this.logger.error({ err, exportId: row.id }, 'could not queue the data export');
      await this.exports.fail(row.id, 'The export could not be started.');
      throw new ServiceUnavailableException(DATA_EXPORT_UNAVAILABLE);
    }
    return this.view(row);
  }

  /** The caller's newest archive (with its link once made) and when a new one may start. */
  async state(caller: SignedInCaller): Promise<DataExportStateDto> {
    const now = this.now();
    await this.exports.failStale(caller.userId, new Date(now.getTime() - DATA_EXPORT_STALE_MS), DATA_EXPORT_STOPPED);
    const row = await this.exports.latestOf(caller.userId);
    // The newest that counts against the limit: a failed newest one leaves the person free to try again.
    const counting = row && row.status !== 'error' ? row : null;
    const next = counting ? new Date(counting.createdAt.getTime() + DATA_EXPORT_INTERVAL_MS) : null;
    return { export: row ? this.view(row) : null, nextExportAt: next && next > now ? next.toISOString() : null };
  }

  /** The ZIP, for a valid token of the archive, or for its owner. Anyone else: 404 (401 Link expired with a token). */
  async file(caller: Caller, exportId: string, access?: string): Promise<ServedObject> {
    const secondsLeft = access !== undefined && isUuid(exportId) ? this.urls.verify(dataExportSubject(exportId), access) : null;
    const row = isUuid(exportId) ? await this.exports.find(exportId.toLowerCase()) : null;
    const owner = !!row && !!caller.userId && row.userId === caller.userId;
    if (secondsLeft === null && !owner) {
      if (access !== undefined) throw new UnauthorizedException(LINK_EXPIRED);
      throw new NotFoundException(DATA_EXPORT_NOT_FOUND);
    }
    if (!row) throw new NotFoundException(DATA_EXPORT_NOT_FOUND);
    if (row.status === 'expired' || (row.expiresAt && row.expiresAt <= this.now())) throw new GoneException(DATA_EXPORT_EXPIRED);
    if (row.status !== 'completed' || !row.objectKey) throw new NotFoundException('The export is not ready');
    const info = await this.storage.stat(row.objectKey);
    if (!info) throw new GoneException(DATA_EXPORT_EXPIRED);
    return {
      key: row.objectKey, info, contentType: 'application/zip', immutable: true, downloadName: row.fileName, disposition: 'attachment',
      ...(secondsLeft !== null && access !== undefined ? { signed: { token: access, secondsLeft } } : {}),
    };
  }

  /** Deletes the files of archives past their seven days; the rows stay as `expired`. */
  async sweep(now = this.now()): Promise<{ dataExportsExpired: number }> {
    const due = await this.exports.expired(now, 500);
    let expired = 0;
    for (const { id } of due) {
      try {
        await this.storage.deletePrefix(dataExportPrefix(id));
        await this.exports.markExpired(id);
        expired += 1;
      } catch (err) {
        this.logger.warn({ err, exportId: id }, 'could not delete an expired data export; the next sweep tries again');
      }
    }
    return { dataExportsExpired: expired };
  }

  private view(row: DataExport): DataExportDto {
    const link = row.status === 'completed' && row.expiresAt ? this.urls.sign(dataExportFileUrl(row.id), dataExportSubject(row.id), Math.floor(row.expiresAt.getTime() / 1000)) : undefined;
    return mapDataExport(row, link);
  }
}
