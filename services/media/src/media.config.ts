import { IsInt, Max, Min } from 'class-validator';
import { ProcessingConfig } from './processing/limits.js';

/** The media service's settings; the processing ones (limits, per-person turns) are shared with the worker. */
export class MediaConfig extends ProcessingConfig {
  /** Time the timelines service gets to answer an access check before the request fails with 503. */
  @IsInt()
  @Min(100)
  @Max(30_000)
  TIMELINES_TIMEOUT_MS: number = 2_000;

  /** Minutes between sweeps of expired upload sessions and orphaned multipart uploads. */
  @IsInt()
  @Min(1)
  @Max(1_440)
  UPLOAD_SWEEP_MINUTES: number = 10;

  /** Hours a resumable upload may go without progress before it expires and the sweep deletes what it stored. */
  @IsInt()
  @Min(1)
  @Max(720)
  UPLOAD_EXPIRY_HOURS: number = 24;

  /** Storage per person, originals plus renditions, in MB (10240 = 10 GB); an upload that would pass it is refused with 413. */
  @IsInt()
  @Min(1)
  STORAGE_QUOTA_MB: number = 10_240;

  /** Hours the original of a media item whose processing failed is kept before the sweep deletes it. */
  @IsInt()
  @Min(1)
  FAILED_ORIGINAL_RETENTION_HOURS: number = 72;

  /** New exports (a re-used fresh one does not count) one person may start per hour and per day; past them, 429 with Retry-After. */
  @IsInt()
  @Min(1)
  EXPORTS_PER_HOUR: number = 10;

  @IsInt()
  @Min(1)
  EXPORTS_PER_DAY: number = 30;

  /** The storage and export settings as startMediaService takes them. */
  storageOptions() {
    return {
      storageQuotaBytes: this.STORAGE_QUOTA_MB * 1024 * 1024,
      failedOriginalRetentionMs: this.FAILED_ORIGINAL_RETENTION_HOURS * 3_600_000,
      uploads: { expiryMs: this.UPLOAD_EXPIRY_HOURS * 3_600_000 },
      exports: { limits: { perHour: this.EXPORTS_PER_HOUR, perDay: this.EXPORTS_PER_DAY } },
    };
  }
}
