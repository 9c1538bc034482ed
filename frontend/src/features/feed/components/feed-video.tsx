import type Hls from 'hls.js/light';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { PlayIcon } from '../../../components/ui/icons';
import { usePageSettled } from '../../../lib/page-settled';
import { autoQuality, canPreload, concurrentVideoLimit, type Quality } from '../../../lib/playback/playback-policy';
import { usePlaybackConditions } from '../../../lib/playback/use-playback-conditions';
import { applyQuality, attachVideoSource } from '../../../lib/playback/use-video-source';
import { AUTOPLAY_VISIBLE_RATIO } from '../../../lib/playback/use-visible-autoplay';
import { feedQuality, pictureHeight } from '../lib/feed-quality';
import { acquireSlot, holdsSlot, releaseSlot, slotsVersion, subscribeSlots } from '../lib/playback-slots';

const videoPath = (id: string) => `/api/videos/${encodeURIComponent(id)}`;

interface Visibility {
  /** Any part on screen. */
  inView: boolean;
  /** At least 30 % on screen: allowed to play. */
  visible: boolean;
}

/**
 * A timeline card's cover video (spec 000, sections 4 and 9): muted and looping, playing only
 * while at least 30 % is visible and a playback slot is free, with a play overlay while paused.
 * Nothing is fetched before the video may play, unless the conditions allow preloading, and a
 * preload waits until the page has loaded and gone idle (it never delays the first screen); hls.js
 * then loads the lowest rendition that covers the picture on screen. The cover's description,
 * when its creators wrote one, is the video's accessible description.
 */
export function FeedVideo({ videoId, title, description }: { videoId: string; title: string; description?: string | null }) {
  const ref = useRef<HTMLVideoElement>(null);
  const descriptionId = useId();
  // The cover video's short description (its creators' alt text), read after the preview's name.
  const described = description?.trim() ?? '';
  const conditions = usePlaybackConditions();
  const limit = concurrentVideoLimit(conditions);
  const preload = canPreload(conditions);
  const cap = autoQuality(conditions);
  const capRef = useRef<Quality>(cap);
  const [view, setView] = useState<Visibility>({ inView: false, visible: false });
  const [playing, setPlaying] = useState(false);
  const holding = useSyncExternalStore(subscribeSlots, () => holdsSlot(videoId));
  const version = useSyncExternalStore(subscribeSlots, slotsVersion);
  const settled = usePageSettled();
  const attach = holding || (preload && view.inView && settled);

  useEffect(() => {
    capRef.current = cap;
  }, [cap]);

  useEffect(() => {
    const video = ref.current;
    if (!video || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          setView({ inView: entry.isIntersecting, visible: entry.isIntersecting && entry.intersectionRatio >= AUTOPLAY_VISIBLE_RATIO });
        }
      },
      { threshold: [0, AUTOPLAY_VISIBLE_RATIO] },
    );
    observer.observe(video);
    return () => observer.disconnect();
  }, []);

  // A visible video asks for a slot, and asks again whenever one frees; out of view, it gives it back.
  useEffect(() => {
    if (view.visible) acquireSlot(videoId, limit);
    else releaseSlot(videoId);
  }, [view.visible, videoId, limit, version]);

  useEffect(() => () => releaseSlot(videoId), [videoId]);

  useEffect(() => {
    const media = ref.current;
    if (!media || !attach) return;
    let hls: Hls | null = null;
    const detach = attachVideoSource(
      media,
      { hlsUrl: `${videoPath(videoId)}/hls/master.m3u8`, streamUrl: `${videoPath(videoId)}/stream` },
      {
        onHls: (instance) => {
          hls = instance;
        },
        onLevels: (heights) => {
          if (!hls || heights.length === 0) return;
          const wanted = feedQuality(pictureHeight(media.clientWidth, media.clientHeight, window.devicePixelRatio || 1), capRef.current);
          applyQuality(hls, heights, wanted, wanted, true);
        },
      },
    );
    return () => {
      // Detaching (load() with no source) pauses without a 'pause' event: pause first, so the
      // play overlay comes back.
      media.pause();
      detach();
    };
  }, [attach, videoId]);

  useEffect(() => {
    const media = ref.current;
    if (!media) return;
    if (holding && view.visible && attach) void media.play()?.catch(() => undefined);
    else if (!media.paused) media.pause();
  }, [holding, view.visible, attach]);

  return (
    <div className="feed-video">
      <video
        ref={ref}
        className="feed-video__media"
        muted
        loop
        playsInline
        preload={preload ? 'metadata' : 'none'}
        aria-label={`Preview of ${title}`}
        aria-describedby={described ? descriptionId : undefined}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEmptied={() => setPlaying(false)}
        onError={() => console.warn('Feed video could not load', videoId)}
      />
      {described ? (
        <span id={descriptionId} className="visually-hidden">
          {described}
        </span>
      ) : null}
      {playing ? null : (
        <button
          type="button"
          className="feed-video__play"
          aria-label={`Play preview of ${title}`}
          onClick={(event) => {
            // The card's link to the player sits around the preview.
            event.preventDefault();
            event.stopPropagation();
            acquireSlot(videoId, limit, true);
          }}
        >
          <PlayIcon width={32} height={32} />
        </button>
      )}
    </div>
  );
}
