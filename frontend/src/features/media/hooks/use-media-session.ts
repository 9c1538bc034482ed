import { useEffect, useRef, type RefObject } from 'react';

/** How far the headset's or lock screen's skip buttons move when they do not say. */
export const DEFAULT_SKIP_S = 10;

export interface MediaSessionOptions {
  /** The item on screen. */
  title: string;
  /** Who made the timeline. */
  artist?: string | undefined;
  /** The timeline. */
  album: string;
  /** The item's thumbnail (a data: address: the lock screen fetches it without the session). */
  artwork?: string | null | undefined;
  playing: boolean;
  media: RefObject<HTMLVideoElement | null>;
  /** Changes when the item does (the video element may be another one). */
  itemKey: string;
  onPlay: () => void;
  onPause: () => void;
  /** Absent at the first (last) item. */
  onPrevious?: (() => void) | undefined;
  onNext?: (() => void) | undefined;
  onSeekTo: (seconds: number) => void;
}

type Handlers = Partial<Record<MediaSessionAction, MediaSessionActionHandler | null>>;

const ACTIONS: MediaSessionAction[] = ['play', 'pause', 'previoustrack', 'nexttrack', 'seekto', 'seekbackward', 'seekforward'];

function sessionOf(): MediaSession | null {
  return typeof navigator !== 'undefined' && 'mediaSession' in navigator && navigator.mediaSession ? navigator.mediaSession : null;
}

function setHandler(session: MediaSession, action: MediaSessionAction, handler: MediaSessionActionHandler | null) {
  try {
    session.setActionHandler(action, handler);
  } catch {
    // An action this browser does not know: its button simply is not there.
  }
}

/**
 * The operating system's media controls (lock screen, notification, headset and keyboard media
 * keys) for the player: what is playing, and play, pause, previous and next item, and seeking.
 */
export function useMediaSession(options: MediaSessionOptions): void {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const { title, artist, album, artwork, playing, media, itemKey } = options;
  const hasPrevious = Boolean(options.onPrevious);
  const hasNext = Boolean(options.onNext);

  useEffect(() => {
    const session = sessionOf();
    if (!session || typeof MediaMetadata === 'undefined') return;
    session.metadata = new MediaMetadata({ title, album, ...(artist ? { artist } : {}), artwork: artwork ? [{ src: artwork, sizes: '160x90', type: 'image/jpeg' }] : [] });
  }, [title, artist, album, artwork]);

  useEffect(() => {
    const session = sessionOf();
    if (session) session.playbackState = playing ? 'playing' : 'paused';
  }, [playing]);

  useEffect(() => {
    const session = sessionOf();
    if (!session) return;
    const element = () => latest.current.media.current;
    const seekBy = (delta: number) => {
      const video = element();
      if (!video) return;
      const end = Number.isFinite(video.duration) ? video.duration : Number.POSITIVE_INFINITY;
      latest.current.onSeekTo(Math.max(0, Math.min(end, video.currentTime + delta)));
    };
    const handlers: Handlers = {
      play: () => latest.current.onPlay(),
      pause: () => latest.current.onPause(),
      previoustrack: hasPrevious ? () => latest.current.onPrevious?.() : null,
      nexttrack: hasNext ? () => latest.current.onNext?.() : null,
      seekto: (details) => {
        if (typeof details.seekTime === 'number' && Number.isFinite(details.seekTime)) latest.current.onSeekTo(Math.max(0, details.seekTime));
      },
      seekbackward: (details) => seekBy(-(details.seekOffset ?? DEFAULT_SKIP_S)),
      seekforward: (details) => seekBy(details.seekOffset ?? DEFAULT_SKIP_S),
    };
    for (const action of ACTIONS) setHandler(session, action, handlers[action] ?? null);
    return () => {
      for (const action of ACTIONS) setHandler(session, action, null);
    };
  }, [hasPrevious, hasNext]);

  // The lock screen's progress bar: told where the video is whenever that jumps (it runs on by itself while playing).
  useEffect(() => {
    const session = sessionOf();
    const video = media.current;
    if (!session || !video || typeof session.setPositionState !== 'function') return;
    const update = () => {
      const duration = video.duration;
      if (!Number.isFinite(duration) || duration <= 0) return;
      try {
        session.setPositionState({ duration, position: Math.min(duration, Math.max(0, video.currentTime)), playbackRate: video.playbackRate || 1 });
      } catch {
        // A position the browser finds inconsistent mid-switch: the next event corrects it.
      }
    };
    const events = ['loadedmetadata', 'durationchange', 'seeked', 'ratechange', 'play', 'pause'] as const;
    for (const name of events) video.addEventListener(name, update);
    update();
    return () => {
      for (const name of events) video.removeEventListener(name, update);
    };
  }, [media, itemKey]);

  // Leaving the player: the system controls no longer point at it.
  useEffect(
    () => () => {
      const session = sessionOf();
      if (!session) return;
      session.metadata = null;
      session.playbackState = 'none';
    },
    [],
  );
}
