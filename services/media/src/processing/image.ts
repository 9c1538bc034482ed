import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { imageSizeFromFile } from 'image-size/fromFile';
import { run } from './ffmpeg.js';
import { ProcessingFailure } from './failures.js';
import { checkImage, DEFAULT_PROCESSING_LIMITS, type ProcessingLimits } from './limits.js';
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
 * The size an image's header declares, read without decoding it (the first bytes of the file).
 * A 747 KB PNG can declare 16,000 x 16,000 pixels: decoding it would take gigabytes.
 */
export async function imageHeaderSize(file: string): Promise<{ width: number; height: number }> {
  let size;
  try {
    size = await imageSizeFromFile(file);
  } catch (error) {
    throw ProcessingFailure.unreadableImage(error);
  }
  // A multi-image file (ICO, HEIF) declares several sizes: the largest is what a decoder may meet.
  const sizes = [size, ...(size.images ?? [])];
  const largest = sizes.reduce((a, b) => ((b.width ?? 0) * (b.height ?? 0) > (a.width ?? 0) * (a.height ?? 0) ? b : a));
  if (!(largest.width && largest.height)) throw ProcessingFailure.unreadableImage(new Error('no size in the header'));
  return { width: largest.width, height: largest.height };
}

/**
 * Images: dimensions, a web-size JPEG and the 160x90 thumbnail, in one ffmpeg run. The first
 * frame of an animated GIF stands for it. Transparent pixels become white (JPEG has no alpha).
 * The header's size is checked against the pixel limit first; ffprobe and ffmpeg are also told
 * the limit (`-max_pixels`), so a header that lies is refused by the decoder rather than obeyed.
 */
export async function processImage(options: {
  ffmpeg: string;
  ffprobe: string;
  input: string;
  outDir: string;
  signal?: AbortSignal;
  limits?: ProcessingLimits;
}): Promise<ImageResult> {
  const limits = options.limits ?? DEFAULT_PROCESSING_LIMITS;
  const header = await imageHeaderSize(options.input);
  checkImage(header.width, header.height, limits);
  const info = await probe(options.ffprobe, options.input, 'image', options.signal, limits.maxImagePixels);
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
        '-max_pixels', String(limits.maxImagePixels), '-i', options.input,
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
