import * as tus from 'tus-js-client';
import { getAuthToken } from '../../../lib/auth-token';

/** An upload a previous page left unfinished; its bytes so far are on the server. */
export interface InterruptedUpload {
  /** Its entry in tus-js-client's URL storage. */
  key: string;
  fileName: string;
  size: number;
  startedAt: string;
  uploadUrl: string;
}

type UrlStorage = Pick<typeof tus.defaultOptions.urlStorage, 'findAllUploads' | 'removeUpload'>;

/** tus-js-client's own storage; where it keeps nothing (no localStorage), an empty one. */
const defaultStorage = (): UrlStorage => {
  const storage = tus.defaultOptions.urlStorage as Partial<UrlStorage> | undefined;
  if (typeof storage?.findAllUploads === 'function' && typeof storage.removeUpload === 'function') return storage as UrlStorage;
  return { findAllUploads: () => Promise.resolve([]), removeUpload: () => Promise.resolve() };
};

/**
 * Uploads to `timelineId` that a closed or reloaded page did not finish. tus-js-client keeps one
 * entry per started upload (and drops it on success); choosing the same file again continues it.
 */
export async function findInterruptedUploads(timelineId: string, storage: UrlStorage = defaultStorage()): Promise<InterruptedUpload[]> {
  const entries = await storage.findAllUploads().catch(() => []);
  return entries
    .filter((entry) => entry.metadata?.timelineId === timelineId && entry.uploadUrl && entry.urlStorageKey)
    .map((entry) => ({
      key: entry.urlStorageKey,
      fileName: entry.metadata.filename ?? 'Unnamed file',
      size: entry.size ?? 0,
      startedAt: entry.creationTime,
      uploadUrl: entry.uploadUrl!,
    }))
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/** Gives an interrupted upload up: the server drops its bytes, this browser forgets it. */
export async function discardInterruptedUpload(
  upload: InterruptedUpload,
  storage: UrlStorage = defaultStorage(),
  terminate: (url: string, options: tus.UploadOptions) => Promise<void> = (url, options) => tus.Upload.terminate(url, options),
): Promise<void> {
  const token = getAuthToken();
  try {
    await terminate(upload.uploadUrl, { headers: token ? { Authorization: `Bearer ${token}` } : {}, retryDelays: [] });
  } catch {
    // Gone already (expired, or finished elsewhere): nothing left to drop on the server.
  } finally {
    await storage.removeUpload(upload.key);
  }
}
