import { IsInt, Max, Min } from 'class-validator';
import { BaseConfig } from '@timeliner/platform';

export class MediaConfig extends BaseConfig {
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
}
