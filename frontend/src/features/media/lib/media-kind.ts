import type { Video } from '../api/types';

/** Whether an item of a timeline's list (GET /videos?include=images) is an image. */
export const isImage = (item: Pick<Video, 'mediaType'>): boolean => item.mediaType === 'image';

/**
 * An image's picture: the web-size rendition the media service makes (the original until then),
 * with the signed-URL token the list gave the item (it opens only this media, for a while), so a
 * new tab can open it too. Fetched with the bearer token where the session has one.
 */
export function imageUrlOf(item: Pick<Video, 'id' | 'streamUrl'>): string {
  const query = item.streamUrl.indexOf('?');
  const access = query >= 0 ? new URLSearchParams(item.streamUrl.slice(query + 1)).get('access') : null;
  const url = `/api/media/${encodeURIComponent(item.id)}/file?variant=web`;
  return access ? `${url}&access=${encodeURIComponent(access)}` : url;
}
