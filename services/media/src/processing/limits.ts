import { IsInt, Max, Min } from 'class-validator';
import { BaseConfig } from '@timeliner/platform';
import { ProcessingFailure } from './failures.js';
import type { ProbeResult } from './probe.js';

/**
 * What one upload may cost the worker. Everything is decided from the file's header (ffprobe for
 * videos, the image header for images) before anything is decoded, so a file past a limit costs
 * the probe alone; the creator reads why it was refused in the studio (the media's `error` state).
 */
export interface ProcessingLimits {
  /** Longest video, in seconds. */
  maxDurationSeconds: number;
  /** Highest frame rate of a video (frames per second). */
  maxFrameRate: number;
  /** Largest video frame, in pixels (width × height). */
  maxVideoPixels: number;
  /** Most pixels per second of video (width × height × frame rate): 4K at 60 fps, 1080p at 240. */
  maxPixelsPerSecond: number;
  /** Largest image, in pixels; bigger ones are refused from their header, before decoding. */
  maxImagePixels: number;
  /** Wall-clock time a job may take before its length counts: download, probe, an image. */
  jobBaseSeconds: number;
  /** Plus this many seconds per second of video; a job past its time is stopped and refused. */
  jobSecondsPerMediaSecond: number;
}

export const DEFAULT_PROCESSING_LIMITS: Readonly<ProcessingLimits> = {
  maxDurationSeconds: 3_600,
  maxFrameRate: 240,
  maxVideoPixels: 8_192 * 4_320,
  maxPixelsPerSecond: 500_000_000,
  maxImagePixels: 50_000_000,
  jobBaseSeconds: 120,
  jobSecondsPerMediaSecond: 6,
};

/**
 * Per-person fairness of processing: how many of one person's media may be in the shared work
 * queue at once (the others wait their turn in the database, see `FairProcessing`), and how many
 * may be waiting for processing before their next upload is refused with 429.
 */
export interface ProcessingFairness {
  perPerson: number;
  maxPendingPerPerson: number;
}

export const DEFAULT_PROCESSING_FAIRNESS: Readonly<ProcessingFairness> = { perPerson: 1, maxPendingPerPerson: 20 };

/** The processing settings, shared by the media service (API) and the worker. */
export class ProcessingConfig extends BaseConfig {
  @IsInt()
  @Min(1)
  @Max(86_400)
  MEDIA_MAX_DURATION_SECONDS: number = DEFAULT_PROCESSING_LIMITS.maxDurationSeconds;

  @IsInt()
  @Min(1)
  @Max(1_000)
  MEDIA_MAX_FRAME_RATE: number = DEFAULT_PROCESSING_LIMITS.maxFrameRate;

  @IsInt()
  @Min(1)
  MEDIA_MAX_VIDEO_PIXELS: number = DEFAULT_PROCESSING_LIMITS.maxVideoPixels;

  @IsInt()
  @Min(1)
  MEDIA_MAX_PIXELS_PER_SECOND: number = DEFAULT_PROCESSING_LIMITS.maxPixelsPerSecond;

  @IsInt()
  @Min(1)
  MEDIA_MAX_IMAGE_PIXELS: number = DEFAULT_PROCESSING_LIMITS.maxImagePixels;

  @IsInt()
  @Min(1)
  @Max(86_400)
  MEDIA_JOB_BASE_SECONDS: number = DEFAULT_PROCESSING_LIMITS.jobBaseSeconds;

  @IsInt()
  @Min(1)
  @Max(1_000)
  MEDIA_JOB_SECONDS_PER_MEDIA_SECOND: number = DEFAULT_PROCESSING_LIMITS.jobSecondsPerMediaSecond;

  @IsInt()
  @Min(1)
  @Max(100)
  MEDIA_PROCESSING_PER_PERSON: number = DEFAULT_PROCESSING_FAIRNESS.perPerson;

  @IsInt()
  @Min(1)
  @Max(10_000)
  MEDIA_MAX_PENDING_PER_PERSON: number = DEFAULT_PROCESSING_FAIRNESS.maxPendingPerPerson;

  processingLimits(): ProcessingLimits {
    return {
      maxDurationSeconds: this.MEDIA_MAX_DURATION_SECONDS,
      maxFrameRate: this.MEDIA_MAX_FRAME_RATE,
      maxVideoPixels: this.MEDIA_MAX_VIDEO_PIXELS,
      maxPixelsPerSecond: this.MEDIA_MAX_PIXELS_PER_SECOND,
      maxImagePixels: this.MEDIA_MAX_IMAGE_PIXELS,
      jobBaseSeconds: this.MEDIA_JOB_BASE_SECONDS,
      jobSecondsPerMediaSecond: this.MEDIA_JOB_SECONDS_PER_MEDIA_SECOND,
    };
  }

  processingFairness(): ProcessingFairness {
    return { perPerson: this.MEDIA_PROCESSING_PER_PERSON, maxPendingPerPerson: this.MEDIA_MAX_PENDING_PER_PERSON };
  }
}

/** Refuses a video the limits do not allow, from its probe (nothing decoded yet). */
export function checkVideo(info: ProbeResult, limits: ProcessingLimits): void {
  if (info.duration > limits.maxDurationSeconds) throw ProcessingFailure.tooLong(info.duration, limits.maxDurationSeconds);
  if (info.fps > limits.maxFrameRate) throw ProcessingFailure.frameRateTooHigh(info.fps, limits.maxFrameRate);
  const pixels = info.width * info.height;
  if (pixels > limits.maxVideoPixels) throw ProcessingFailure.frameTooLarge(info.width, info.height, limits.maxVideoPixels);
  // A frame rate the container does not state counts as 30 (what the renditions would get).
  if (pixels * (info.fps || 30) > limits.maxPixelsPerSecond) {
    throw ProcessingFailure.pixelRateTooHigh(info.width, info.height, info.fps || 30, limits.maxPixelsPerSecond);
  }
}

/** Refuses an image larger than the limit, from the size its header declares. */
export function checkImage(width: number, height: number, limits: ProcessingLimits): void {
  if (width * height > limits.maxImagePixels) throw ProcessingFailure.imageTooLarge(width, height, limits.maxImagePixels);
}

/** Wall-clock seconds a job on `mediaSeconds` of video may take (images: the base alone). */
export function jobSeconds(mediaSeconds: number, limits: ProcessingLimits): number {
  return limits.jobBaseSeconds + Math.max(0, mediaSeconds) * limits.jobSecondsPerMediaSecond;
}

/**
 * A job's clock: `signal` aborts when the job's own signal does (the worker shuts down, the job
 * goes back to the queue) or when the time allowed has run out (`expired`: the job is refused).
 * The time is counted from the job's start; `allow` changes it once the media's length is known.
 */
export class JobClock {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly started = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private allowedSeconds = 0;
  expired = false;

  constructor(
    private readonly jobSignal: AbortSignal,
    seconds: number,
  ) {
    this.signal = AbortSignal.any([jobSignal, this.controller.signal]);
    this.allow(seconds);
  }

  get seconds(): number {
    return this.allowedSeconds;
  }

  /** The job may run `seconds` from its start in all. */
  allow(seconds: number): void {
    this.allowedSeconds = seconds;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort();
    }, Math.max(0, this.started + seconds * 1000 - Date.now()));
    this.timer.unref();
  }

  /** The failure to report for `error`: past its time (and not shutting down) the job is refused. */
  explain(error: unknown): unknown {
    if (this.expired && !this.jobSignal.aborted) return ProcessingFailure.tookTooLong(this.allowedSeconds, error);
    return error;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}
