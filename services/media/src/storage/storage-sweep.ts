import type { Logger } from 'pino';
import type { ObjectStorage } from '@timeliner/platform';
import type { MediaRepository } from '../media/media.repository.js';
import { mediaPrefix, originalKey } from './object-keys.js';

export interface StorageSweepOptions {
  /** How long the original of media whose processing failed is kept (for the creator to see why); default 72 h. */
  failedOriginalRetentionMs?: number;
}

export const DEFAULT_FAILED_ORIGINAL_RETENTION_MS = 72 * 3_600_000;
/** Processed media are measured once their job has been over this long (nothing is still being written). */
const SETTLE_MS = 60_000;
const BATCH = 200;

/**
 * The storage side of the periodic sweep (with the upload and export sweeps, every
 * UPLOAD_SWEEP_MINUTES):
 *
 * - measures what processing stored for each media item whose processing is over, so the
 *   person's usage counts renditions and thumbnails as well as the original;
 * - deletes the original of media whose processing failed, FAILED_ORIGINAL_RETENTION_HOURS after
 *   the failure (the item stays, with its reason, for the creator to delete or upload again).
 *
 * Both write `media` columns the usage trigger reads, so the person's usage follows. Safe to run
 * on every replica at once (each change is conditional on the row still needing it).
 */
export class StorageSweep {
  private readonly retentionMs: number;

  constructor(
    private readonly media: MediaRepository,
    private readonly storage: ObjectStorage,
    private readonly logger: Logger,
    options: StorageSweepOptions = {},
  ) {
    this.retentionMs = options.failedOriginalRetentionMs ?? DEFAULT_FAILED_ORIGINAL_RETENTION_MS;
  }

  async sweep(now = new Date()): Promise<{ measured: number; failedOriginalsDeleted: number }> {
    return { measured: await this.measure(now), failedOriginalsDeleted: await this.deleteFailedOriginals(now) };
  }

  private async measure(now: Date): Promise<number> {
    const ids = await this.media.unmeasured(new Date(now.getTime() - SETTLE_MS), BATCH);
    let measured = 0;
    for (const id of ids) {
      try {
        let bytes = 0;
        for await (const object of this.storage.list(mediaPrefix(id))) if (object.key !== originalKey(id)) bytes += object.size;
        await this.media.setRenditionBytes(id, bytes);
        measured += 1;
      } catch (err) {
        this.logger.warn({ err, mediaId: id }, 'could not measure the stored renditions of a media item');
      }
    }
    return measured;
  }

  private async deleteFailedOriginals(now: Date): Promise<number> {
    const rows = await this.media.failedOriginals(new Date(now.getTime() - this.retentionMs), BATCH);
    let deleted = 0;
    for (const { id, filename } of rows) {
      try {
        await this.storage.delete(filename);
        await this.media.markOriginalDeleted(id);
        deleted += 1;
      } catch (err) {
        this.logger.warn({ err, mediaId: id }, 'could not delete the original of a failed media item');
      }
    }
    return deleted;
  }
}
