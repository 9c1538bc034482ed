import { randomBytes } from 'node:crypto';

/**
 * Object keys, all generated here (user file names are metadata only). Everything a media item
 * owns lives under its prefix, so deleting the prefix deletes it all: the original, and what the
 * worker makes (`hls/`, thumbnails, the web-size image).
 */
export const mediaPrefix = (mediaId: string): string => `media/${mediaId}/`;
export const originalKey = (mediaId: string): string => `media/${mediaId}/original`;
export const hlsKey = (mediaId: string, file: string): string => `media/${mediaId}/hls/${file}`;

/** Where an upload session keeps its pending tail; a fresh name per write (see tus-uploads.ts). */
export const uploadPrefix = (sessionId: string): string => `uploads/${sessionId}/`;
export const newTailKey = (sessionId: string): string => `uploads/${sessionId}/tail/${randomBytes(8).toString('hex')}`;
