/**
 * The browser's picture-in-picture for the player's video (the Picture-in-Picture API: Chromium,
 * Safari; Firefox has its own overlay button and no API). Where it is missing nothing is offered.
 */
export function pictureInPictureSupported(video?: HTMLVideoElement | null): boolean {
  if (typeof document === 'undefined' || document.pictureInPictureEnabled !== true) return false;
  if (typeof HTMLVideoElement === 'undefined' || typeof HTMLVideoElement.prototype.requestPictureInPicture !== 'function') return false;
  return !video?.disablePictureInPicture;
}

export function inPictureInPicture(video: HTMLVideoElement | null | undefined): boolean {
  return Boolean(video) && typeof document !== 'undefined' && document.pictureInPictureElement === video;
}

/** Opens the video in its own small window, or brings it back; refusals (no user gesture, no video yet) are ignored. */
export async function togglePictureInPicture(video: HTMLVideoElement | null | undefined): Promise<void> {
  if (!video || !pictureInPictureSupported(video)) return;
  try {
    if (inPictureInPicture(video)) await document.exitPictureInPicture();
    else await video.requestPictureInPicture();
  } catch (error) {
    console.warn('Picture in picture is not available now', error);
  }
}
