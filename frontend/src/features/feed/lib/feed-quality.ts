import { QUALITIES, QUALITY_HEIGHT, type Quality } from '../../../lib/playback/playback-policy';

/**
 * The lowest rendition whose height covers the picture on screen (device pixels), never above
 * `cap` (what the network, battery and device allow). A feed preview is small and muted: anything
 * sharper than its box is data spent on pixels nobody sees.
 */
export function feedQuality(pictureHeightPx: number, cap: Quality): Quality {
  const allowed = QUALITIES.filter((quality) => QUALITY_HEIGHT[quality] <= QUALITY_HEIGHT[cap]);
  return allowed.find((quality) => QUALITY_HEIGHT[quality] >= pictureHeightPx) ?? allowed.at(-1) ?? '144p';
}

/**
 * Height of a 16:9 picture shown within a box (object-fit: contain), in device pixels.
 */
export function pictureHeight(boxWidth: number, boxHeight: number, pixelRatio: number): number {
  return Math.round(Math.min(boxHeight, (boxWidth * 9) / 16) * pixelRatio);
}
