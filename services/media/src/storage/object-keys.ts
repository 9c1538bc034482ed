import { randomBytes } from 'node:crypto';
import { MASTER_PLAYLIST } from '../processing/transcode.js';

/**
 * Every object key the media service and its worker use, all generated here (user file names are
 * metadata only). Everything a media item owns lives under its prefix, so deleting the prefix
 * deletes it all: the original, and what the worker makes (`hls/`, thumbnail, poster, the
 * web-size image).
 */
export const MEDIA_ROOT = 'media/';
export const mediaPrefix = (mediaId: string): string => `${MEDIA_ROOT}${mediaId}/`;
export const originalKey = (mediaId: string): string => `${mediaPrefix(mediaId)}original`;
export const hlsPrefix = (mediaId: string): string => `${mediaPrefix(mediaId)}hls/`;
export const hlsKey = (mediaId: string, file: string): string => `${hlsPrefix(mediaId)}${file}`;

/** What the worker makes of an original, under the media's prefix. */
export const processedKeys = {
  thumbnail: (mediaId: string) => `${mediaPrefix(mediaId)}thumbnail.jpg`,
  poster: (mediaId: string) => `${mediaPrefix(mediaId)}poster.jpg`,
  /** The web-size rendition of an image (the API serves it as `?variant=web`). */
  webImage: (mediaId: string) => `${mediaPrefix(mediaId)}web.jpg`,
  hlsPrefix,
  master: (mediaId: string) => hlsKey(mediaId, MASTER_PLAYLIST),
};

/** Where an upload session keeps its pending tail; a fresh name per write (see tus-uploads.ts). */
export const uploadPrefix = (sessionId: string): string => `uploads/${sessionId}/`;
export const newTailKey = (sessionId: string): string => `${uploadPrefix(sessionId)}tail/${randomBytes(8).toString('hex')}`;

/** An export's MP4, under a prefix of its own. */
export const exportPrefix = (exportId: string): string => `exports/${exportId}/`;
export const exportKey = (exportId: string, fileName: string): string => `${exportPrefix(exportId)}${fileName}`;

/** A person's "Download your data" ZIP, under a prefix of its own. */
export const dataExportPrefix = (exportId: string): string => `data-exports/${exportId}/`;
export const dataExportKey = (exportId: string, fileName: string): string => `${dataExportPrefix(exportId)}${fileName}`;

/** A profile picture; a new version is a new key (the old one is deleted once it is replaced). */
export const avatarKey = (userId: string, version: number): string => `avatars/${userId}/${version}.jpg`;
