import { mediaKind } from './file-acceptance';

export const PREVIEW_WIDTH = 160;
export const PREVIEW_HEIGHT = 90;
export const PREVIEW_QUALITY = 0.8;
const PREVIEW_TIMEOUT_MS = 10_000;

/** The frame a preview shows: 2 s in, or a quarter of a shorter video (spec 001, section 9). */
export function previewTime(duration: number): number {
  if (!Number.isFinite(duration) || duration <= 0) return 0;
  return Math.min(2, duration / 4);
}

/** Where a frame of `width` x `height` sits in the 160x90 picture: whole, centred. */
export function fitFrame(width: number, height: number) {
  const scale = Math.min(PREVIEW_WIDTH / width, PREVIEW_HEIGHT / height);
  const w = Math.round(width * scale);
  const h = Math.round(height * scale);
  return { x: Math.round((PREVIEW_WIDTH - w) / 2), y: Math.round((PREVIEW_HEIGHT - h) / 2), w, h };
}

function videoFrame(file: File): Promise<string | null> {
  return new Promise((resolve) => {
    const source = URL.createObjectURL(file);
    const video = document.createElement('video');
    let settled = false;
    const finish = (url: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(source);
      resolve(url);
    };
    const timer = setTimeout(() => finish(null), PREVIEW_TIMEOUT_MS);
    video.muted = true;
    video.playsInline = true;
    video.preload = 'metadata';
    video.onerror = () => finish(null);
    video.onloadedmetadata = () => {
      video.currentTime = previewTime(video.duration);
    };
    video.onseeked = () => {
      const canvas = document.createElement('canvas');
      canvas.width = PREVIEW_WIDTH;
      canvas.height = PREVIEW_HEIGHT;
      const context = canvas.getContext('2d');
      if (!context || !video.videoWidth || !video.videoHeight) {
        finish(null);
        return;
      }
      context.fillStyle = '#000';
      context.fillRect(0, 0, PREVIEW_WIDTH, PREVIEW_HEIGHT);
      const frame = fitFrame(video.videoWidth, video.videoHeight);
      context.drawImage(video, frame.x, frame.y, frame.w, frame.h);
      canvas.toBlob((blob) => finish(blob ? URL.createObjectURL(blob) : null), 'image/jpeg', PREVIEW_QUALITY);
    };
    video.src = source;
  });
}

/**
 * A small picture of a file for the upload lists, made in the browser: a 160x90 JPEG frame of a
 * video, or the image itself. An object URL (revoke it when done), or null when the browser
 * cannot decode the file.
 */
export function makePreview(file: File): Promise<string | null> {
  if (mediaKind(file) === 'image') return Promise.resolve(URL.createObjectURL(file));
  return videoFrame(file);
}

export function revokePreview(url: string): void {
  URL.revokeObjectURL(url);
}
