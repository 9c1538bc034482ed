import * as tus from 'tus-js-client';
import { getAuthToken } from '../../../lib/auth-token';
import type { UploadCallbacks, UploadHandle, UploadTransport } from './upload-manager';

/** The resumable upload endpoint (tus 1.0; DESIGN.md section 4). */
export const TUS_ENDPOINT = '/api/uploads';
export const CHUNK_SIZE = 8 * 1024 * 1024;
/** The creation's (and a resumed upload's HEAD) answer naming the media item the upload becomes. */
export const MEDIA_ID_HEADER = 'Upload-Media-Id';
/**
 * When to try again after a failed request (ms). Every 300 ms for the first four seconds: a replica
 * takes over at once and a restarted service answers within one to two seconds, and a try while
 * it is down costs one HEAD (the gateway answers 423). Sparse later, about 45 s in all before the
 * upload is shown as failed; the count starts over whenever bytes are stored.
 */
export const RETRY_DELAYS = [0, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 1000, 2000, 3000, 5000, 10000, 20000];

/**
 * What identifies "the same upload" across page loads: the file (name, size, last change) and
 * the timeline it goes to. tus-js-client keeps fingerprint → upload URL in local storage, so
 * choosing the same file again after a reload continues where it stopped.
 */
export function uploadFingerprint(file: Pick<File, 'name' | 'size' | 'lastModified'>, timelineId: string): string {
  return ['timeliner-upload', file.name, file.size, file.lastModified, timelineId].join('|');
}

/** The server's message in a failed tus answer, else a general one. */
export function tusErrorMessage(error: unknown): string {
  const response = (error as { originalResponse?: { getBody?: () => string; getStatus?: () => number } } | null)?.originalResponse;
  const body = response?.getBody?.();
  if (body) {
    try {
      const parsed: unknown = JSON.parse(body);
      const message = (parsed as { message?: unknown } | null)?.message;
      if (typeof message === 'string' && message) return message;
    } catch {
      // Not JSON: fall through to the general text.
    }
  }
  return 'Upload failed. Please try again.';
}

/** The tus options for a file; exported for the test. */
export function tusOptions(file: File, timelineId: string, callbacks: UploadCallbacks): tus.UploadOptions {
  const token = getAuthToken();
  return {
    endpoint: `${window.location.origin}${TUS_ENDPOINT}`,
    chunkSize: CHUNK_SIZE,
    retryDelays: RETRY_DELAYS,
    metadata: { timelineId, filename: file.name, filetype: file.type || 'application/octet-stream' },
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    fingerprint: (input) => Promise.resolve(uploadFingerprint(input as File, timelineId)),
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onAfterResponse: (_request, response) => {
      const mediaId = response.getHeader(MEDIA_ID_HEADER);
      if (mediaId) callbacks.onMediaId(mediaId);
    },
    onProgress: (sent, total) => callbacks.onProgress(sent, total),
    onSuccess: () => callbacks.onSuccess(),
    onError: (error) => callbacks.onError(new Error(tusErrorMessage(error))),
    // Refusals (wrong type, too large, not allowed) stay refusals; conflicts, rate limits and
    // network failures are worth another try.
    onShouldRetry: (error) => {
      const status = (error as tus.DetailedError).originalResponse?.getStatus() ?? 0;
      return status === 0 || status === 409 || status === 423 || status === 429 || status >= 500;
    },
  };
}

type UploadClass = new (file: File, options: tus.UploadOptions) => Pick<
  tus.Upload,
  'start' | 'abort' | 'findPreviousUploads' | 'resumeFromPreviousUpload'
>;

/** Uploads with tus, continuing a stored upload of the same file when there is one. */
export function createTusTransport(Upload: UploadClass = tus.Upload): UploadTransport {
  return (file, timelineId, callbacks): UploadHandle => {
    const upload = new Upload(file, tusOptions(file, timelineId, callbacks));
    let aborted = false;
    upload
      .findPreviousUploads()
      .then((previous) => {
        if (aborted) return;
        const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
        if (latest) upload.resumeFromPreviousUpload(latest);
        upload.start();
      })
      .catch(() => {
        if (!aborted) upload.start();
      });
    return {
      abort: (terminate) => {
        aborted = true;
        return upload.abort(terminate).catch((error: unknown) => console.warn('Could not cancel the upload on the server', error));
      },
    };
  };
}
