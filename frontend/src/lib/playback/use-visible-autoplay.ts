import { useEffect, useState, type RefObject } from 'react';

/** A feed video plays only while at least 30 % of it is on screen (spec 000, sections 4 and 9). */
export const AUTOPLAY_VISIBLE_RATIO = 0.3;

/**
 * For feed cards: plays the video muted and looping while at least 30 % of it is visible, and
 * pauses it otherwise. Returns whether it is playing, so the card can show a play overlay while
 * it is not.
 */
export function useVisibleAutoplay(ref: RefObject<HTMLVideoElement | null>): boolean {
  const [playing, setPlaying] = useState(false);

  useEffect(() => {
    const video = ref.current;
    if (!video || typeof IntersectionObserver === 'undefined') return;
    video.muted = true;
    video.loop = true;
    video.playsInline = true;
    const onPlay = () => setPlaying(true);
    const onPause = () => setPlaying(false);
    video.addEventListener('play', onPlay);
    video.addEventListener('pause', onPause);
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting && entry.intersectionRatio >= AUTOPLAY_VISIBLE_RATIO) {
            void video.play()?.catch(() => undefined);
          } else if (!video.paused) {
            video.pause();
          }
        }
      },
      { threshold: [0, AUTOPLAY_VISIBLE_RATIO, 1] },
    );
    observer.observe(video);
    return () => {
      observer.disconnect();
      video.removeEventListener('play', onPlay);
      video.removeEventListener('pause', onPause);
      video.pause();
    };
  }, [ref]);

  return playing;
}
