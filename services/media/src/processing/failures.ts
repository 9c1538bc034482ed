import { UnprocessableMessageError } from '@timeliner/platform';

/**
 * A failure the creator is told about, in a sentence they can act on. Permanent ones (the file
 * is not a video) are given up at once; the work queue does not retry them. They extend
 * UnprocessableMessageError, which is how a job handler tells the queue "never retry".
 */
export class ProcessingFailure extends UnprocessableMessageError {
  constructor(
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(reason, options);
    this.name = 'ProcessingFailure';
  }

  static unreadableVideo = (cause?: unknown) => new ProcessingFailure('The file could not be read as a video', { cause });
  static unreadableImage = (cause?: unknown) => new ProcessingFailure('The file could not be read as an image', { cause });
  static missingOriginal = () => new ProcessingFailure('The uploaded file is missing; please upload it again');

  // Limits (limits.ts), decided from the header before anything is decoded.
  static tooLong = (seconds: number, max: number) =>
    new ProcessingFailure(`The video is ${clock(seconds)} long; videos can be at most ${clock(max)}`);
  static frameRateTooHigh = (fps: number, max: number) =>
    new ProcessingFailure(`The video has ${Math.round(fps)} frames per second; videos can have at most ${max}`);
  static frameTooLarge = (width: number, height: number, max: number) =>
    new ProcessingFailure(`The video's picture is ${width} × ${height} pixels; videos can be at most ${megapixels(max)} megapixels`);
  static pixelRateTooHigh = (width: number, height: number, fps: number, max: number) =>
    new ProcessingFailure(`The video is ${width} × ${height} at ${Math.round(fps)} frames per second, more than can be processed (at most ${megapixels(max)} megapixels a second)`);
  static imageTooLarge = (width: number, height: number, max: number) =>
    new ProcessingFailure(`The image is ${width} × ${height} pixels; images can be at most ${megapixels(max)} megapixels`);
  static tookTooLong = (seconds: number, cause?: unknown) =>
    new ProcessingFailure(`Processing was stopped after ${clock(seconds)}, the most this file may take`, { cause });
}

/** 75 → `1:15`, 3600 → `1:00:00`. */
function clock(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const megapixels = (pixels: number): string => String(Math.round(pixels / 100_000) / 10);

/** What the creator reads when the job failed for a reason that is not theirs (after the retries). */
export const GENERIC_VIDEO_FAILURE = 'The video could not be processed; please try uploading it again';
export const GENERIC_IMAGE_FAILURE = 'The image could not be processed; please try uploading it again';

export function reasonOf(error: unknown, fallback: string): string {
  return error instanceof ProcessingFailure ? error.reason : fallback;
}
