import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useVideoThumbnail } from '../../../lib/video-thumbnail';
import { clearWatchPosition, saveWatchPosition, useWatchPosition } from '../api/watch-position';
import type { Video } from '../api/types';
import { useMediaSession } from '../hooks/use-media-session';
import { isImage } from '../lib/media-kind';
import { createPlaceSaver, MIN_RESUME_S, resumeOffer, serially } from '../lib/resume';
import './player-session.css';

export interface PlayerSessionProps {
  timeline: { id: string; title: string; creatorName?: string | null | undefined };
  items: Video[];
  index: number;
  media: RefObject<HTMLVideoElement | null>;
  playing: boolean;
  /** Places are kept for people with an account. */
  signedIn: boolean;
  /** The page was opened at a place (a link's item or time): no offer to go elsewhere. */
  linked: boolean;
  /** How many times the last item has ended: each time, the timeline was watched to its end. */
  finishes: number;
  onJump: (index: number, seconds: number) => void;
  onGoTo: (index: number) => void;
  onPlay: () => void;
  onPause: () => void;
  onSeek: (seconds: number) => void;
}

/** A thumbnail as a data: address (the system's media controls fetch artwork without the session). */
function useArtwork(url: string | null | undefined): string | null {
  const picture = useVideoThumbnail(url);
  const [read, setRead] = useState<{ blob: Blob; address: string } | null>(null);
  useEffect(() => {
    const blob = picture.data;
    if (!blob || typeof FileReader === 'undefined') return;
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') setRead({ blob, address: reader.result });
    };
    reader.readAsDataURL(blob);
    return () => reader.abort();
  }, [picture.data]);
  return read && read.blob === picture.data ? read.address : null;
}

/**
 * What the player keeps beyond the page: the operating system's media controls (Media Session),
 * and the viewer's place in the timeline, saved as they watch and offered back ("Resume at 2:14")
 * when they open the timeline again, here or on another device.
 */
export default function PlayerSession({ timeline, items, index, media, playing, signedIn, linked, finishes, onJump, onGoTo, onPlay, onPause, onSeek }: PlayerSessionProps) {
  const item = items[Math.min(index, items.length - 1)]!;
  const artwork = useArtwork(item.thumbnailUrl);
  useMediaSession({
    title: item.title,
    artist: timeline.creatorName ?? undefined,
    album: timeline.title,
    artwork,
    playing,
    media,
    itemKey: item.id,
    onPlay,
    onPause,
    onPrevious: index > 0 ? () => onGoTo(index - 1) : undefined,
    onNext: index < items.length - 1 ? () => onGoTo(index + 1) : undefined,
    onSeekTo: onSeek,
  });

  // The saved place, read as the timeline opens; offered once, until taken, dismissed or moved past.
  const saved = useWatchPosition(timeline.id, { enabled: signedIn && !linked });
  const [answered, setAnswered] = useState(false);
  const [openedAt] = useState(index);
  const offer = useMemo(() => (saved.data ? resumeOffer(saved.data, items) : null), [saved.data, items]);
  const offered = offer && !answered && !linked && index === openedAt ? offer : null;

  // Saving: only once the viewer has watched a little or moved on, so opening a timeline does not
  // overwrite the place another device saved.
  const timelineId = timeline.id;
  const saver = useMemo(() => {
    const queue = serially();
    // A page being left cannot wait for the request before: keepalive ones go at once.
    const send = (task: () => Promise<void>, keepalive: boolean) => (keepalive ? void task() : queue(task));
    return createPlaceSaver(
      (place, options) => send(() => saveWatchPosition(timelineId, place, options), options.keepalive),
      (options) => send(() => clearWatchPosition(timelineId, options), options.keepalive),
    );
  }, [timelineId]);
  const engaged = useRef(false);

  useEffect(() => {
    if (!signedIn) return;
    if (index !== openedAt) engaged.current = true;
    if (engaged.current && isImage(item)) saver.note({ itemId: item.id, seconds: 0 });
    const video = media.current;
    if (!video || isImage(item)) return;
    const onTime = () => {
      if (!engaged.current && video.currentTime >= MIN_RESUME_S) engaged.current = true;
      if (engaged.current) saver.note({ itemId: item.id, seconds: video.currentTime });
    };
    const onPaused = () => {
      // The end of a video pauses it too: what follows is the next item, or the timeline finished.
      if (video.ended) return;
      onTime();
      saver.flush();
    };
    video.addEventListener('timeupdate', onTime);
    video.addEventListener('pause', onPaused);
    return () => {
      video.removeEventListener('timeupdate', onTime);
      video.removeEventListener('pause', onPaused);
    };
  }, [signedIn, saver, media, item, index, openedAt]);

  useEffect(() => {
    if (signedIn && finishes > 0) saver.finish();
  }, [signedIn, finishes, saver]);

  // The page hidden (another app, the phone locked) or left: the place goes out with keepalive.
  useEffect(() => {
    if (!signedIn) return;
    const leave = () => saver.flush({ keepalive: true });
    const onHidden = () => {
      if (document.visibilityState === 'hidden') leave();
    };
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', onHidden);
      leave();
    };
  }, [signedIn, saver]);

  const target = offered ? items[offered.index] : undefined;
  // Said politely when it appears (the host is always there, so the offer's arrival is announced).
  return (
    <div className="player-resume-host" aria-live="polite">
      {offered && target ? (
        <div className="player-resume" role="group" aria-label="Resume watching">
          <button
            type="button"
            className="player-resume__go"
            aria-describedby="player-resume-where"
            onClick={() => {
              engaged.current = true;
              setAnswered(true);
              onJump(offered.index, offered.seconds);
            }}
          >
            {offered.label}
          </button>
          <span id="player-resume-where" className="player-resume__where">
            {`${isImage(target) ? 'Image' : 'Video'} ${offered.index + 1} of ${items.length}: ${target.title}`}
          </span>
          <button type="button" className="player-resume__dismiss" aria-label="Dismiss" onClick={() => setAnswered(true)}>
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" /></svg>
          </button>
        </div>
      ) : null}
    </div>
  );
}
