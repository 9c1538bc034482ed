import { useEffect, useRef, useState } from 'react';
import { useVideoThumbnail } from '../../../lib/video-thumbnail';
import type { Video } from '../api/types';
import { imageUrlOf } from '../lib/media-kind';

/** How long the player shows an image before it moves on, as at the end of a video. */
export const IMAGE_SLIDE_MS = 5000;
const TICK_MS = 100;

export interface ImageSlideProps {
  image: Video;
  /** The viewer paused: the time stands still. */
  paused: boolean;
  /** The image has been shown for its time. */
  onEnded: () => void;
  durationMs?: number;
}

/**
 * An image of the timeline in the player: the picture (fetched with the session, as thumbnails
 * are), fitted to the screen, for a fixed time shown by a bar; the time starts once the picture
 * is there (or could not be fetched, so a broken image does not stop the timeline).
 */
export function ImageSlide({ image, paused, onEnded, durationMs = IMAGE_SLIDE_MS }: ImageSlideProps) {
  const picture = useVideoThumbnail(imageUrlOf(image));
  const element = useRef<HTMLImageElement>(null);
  const blob = picture.data;
  const [elapsed, setElapsed] = useState(0);
  const shown = useRef(0);
  const ended = useRef(onEnded);
  const ready = Boolean(blob) || picture.isError;

  useEffect(() => {
    ended.current = onEnded;
  }, [onEnded]);

  useEffect(() => {
    const img = element.current;
    if (!img || !blob || typeof URL.createObjectURL !== 'function') return;
    const objectUrl = URL.createObjectURL(blob);
    img.src = objectUrl;
    return () => {
      img.removeAttribute('src');
      URL.revokeObjectURL(objectUrl);
    };
  }, [blob]);

  useEffect(() => {
    if (paused || !ready || shown.current >= durationMs) return;
    const startedAt = Date.now() - shown.current;
    const timer = setInterval(() => {
      shown.current = Math.min(durationMs, Date.now() - startedAt);
      setElapsed(shown.current);
      if (shown.current >= durationMs) {
        clearInterval(timer);
        ended.current();
      }
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [paused, ready, durationMs]);

  const seconds = Math.round(durationMs / 1000);
  return (
    <>
      {blob ? (
        <img ref={element} className="player__video player__image" alt={image.altText || image.title} decoding="async" />
      ) : (
        <div className="player__video player__image player__image--empty">{picture.isError ? <p>The image could not be shown.</p> : null}</div>
      )}
      <div
        className="player__slide-time"
        role="progressbar"
        aria-label="Time on this image"
        aria-valuemin={0}
        aria-valuemax={seconds}
        aria-valuenow={Math.min(seconds, Math.floor(elapsed / 1000))}
        aria-valuetext={`${Math.floor(elapsed / 1000)} of ${seconds} seconds`}
      >
        <span className="player__slide-time-bar" style={{ width: `${(elapsed / durationMs) * 100}%` }} />
      </div>
    </>
  );
}
