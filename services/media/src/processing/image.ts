import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './ffmpeg.js';
import { ProcessingFailure } from './failures.js';
import { probe } from './probe.js';
import { THUMBNAIL } from './transcode.js';

/** Long side of the web-size rendition of an image. */
export const WEB_IMAGE_MAX_SIDE = 1920;

export interface ImageResult {
  width: number;
  height: number;
  /** JPEG, at most 1920 px on the long side, transparency flattened onto white. */
  web: string;
  /** 160x90 JPEG, letterboxed. */
  thumbnail: string;
}

/**
 * Images: dimensions, a web-size JPEG and the 160x90 thumbnail, in one ffmpeg run. The first
 * frame of an animated GIF stands for it. Transparent pixels become white (JPEG has no alpha).
 */
export async function processImage(options: { ffmpeg: string; ffprobe: string; input: string; outDir: string; signal?: AbortSignal }): Promise<ImageResult> {
  const info = await probe(options.ffprobe, options.input, 'image', options.signal);
  await mkdir(options.outDir, { recursive: true });
  const web = join(options.outDir, 'web.jpg');
  const thumbnail = join(options.outDir, THUMBNAIL.file);
  const { width: w, height: h } = THUMBNAIL;
  const max = WEB_IMAGE_MAX_SIDE;
  const filter =
    // Flatten onto white: a white canvas the size of the image, the image laid over it.
    `[0:v]format=rgba,split=2[img][ref];[ref]drawbox=c=white:t=fill,format=rgba[bg];[bg][img]overlay=format=auto,format=rgb24,split=2[a][b];` +
    `[a]scale='min(iw,${max})':'min(ih,${max})':force_original_aspect_ratio=decrease:force_divisible_by=2,setsar=1,format=yuvj420p[web];` +
    `[b]scale=${w}:${h}:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,format=yuvj420p[thumb]`;
  try {
    await run(
      options.ffmpeg,
      [
        '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
        '-i', options.input,
        '-filter_complex', filter,
        '-map', '[web]', '-frames:v', '1', '-q:v', '3', '-f', 'image2', web,
        '-map', '[thumb]', '-frames:v', '1', '-q:v', '4', '-f', 'image2', thumbnail,
      ],
      { signal: options.signal },
    );
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw ProcessingFailure.unreadableImage(error);
  }
  return { width: info.displayWidth, height: info.displayHeight, web, thumbnail };
}
