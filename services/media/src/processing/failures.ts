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
}

/** What the creator reads when the job failed for a reason that is not theirs (after the retries). */
export const GENERIC_VIDEO_FAILURE = 'The video could not be processed; please try uploading it again';
export const GENERIC_IMAGE_FAILURE = 'The image could not be processed; please try uploading it again';

export function reasonOf(error: unknown, fallback: string): string {
  return error instanceof ProcessingFailure ? error.reason : fallback;
}
