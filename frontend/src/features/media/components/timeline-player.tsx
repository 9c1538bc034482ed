import { lazy, Suspense, useEffect, useId, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { ModerationReviewNote } from '../../../components/ui/moderation-review-note';
import { useAfterFirstPaint } from '../../../lib/after-first-render';
import { useUser } from '../../../lib/current-user';
import type { WatchPosition } from '../../../lib/deep-link';
import { formatDuration } from '../../../lib/format';
import { canPreload, isDataSaver, offeredQualities, type QualitySetting } from '../../../lib/playback/playback-policy';
import { usePlaybackConditions } from '../../../lib/playback/use-playback-conditions';
import { useVideoSource } from '../../../lib/playback/use-video-source';
import type { Video } from '../api/types';
import { classifyGesture, CONTROLS_HIDE_MS, createGate, SWITCH_GUARD_MS, TAP_DEBOUNCE_MS, type Gesture } from '../lib/gestures';
import { isImage } from '../lib/media-kind';
import { pictureInPictureSupported, togglePictureInPicture } from '../lib/picture-in-picture';
import { videoChapters } from '../lib/video-chapters';
import { ExportButton } from './export-button';
import { ImageSlide } from './image-slide';
import { PlayerAnnouncer } from './player-announcer';
import { PlayerSocial } from './player-social';
import type { CommentModeration } from './player-comment-moderation';
import './player.css';

/** Captions and the transcript: their own chunk, asked for after the player's first paint. */
const PlayerCaptions = lazy(() => import('./player-captions'));
/** The system's media controls and the saved place ("Resume at 2:14"); picture in picture: after the first paint. */
const PlayerSession = lazy(() => import('./player-session'));
const PictureInPictureButton = lazy(() => import('./picture-in-picture-button'));
/** The timeline's scrubber and the Chapters panel: their own chunk, after the first paint too. */
const PlayerChapters = lazy(() => import('./player-chapters'));
/** The ALT badge that shows the item's alt text or description on screen: after the first paint. */
const PlayerAltText = lazy(() => import('./player-alt-text'));

/**
 * A part of the controls that comes after the first paint: until it arrives, an empty box of its
 * size, so that nothing on screen moves when it does.
 */
function AfterPaint({ painted, slot, children }: { painted: boolean; slot: ReactNode; children: ReactNode }) {
  return painted ? <Suspense fallback={slot}>{children}</Suspense> : slot;
}

/** The viewer's time in this timeline so far (the server keeps the largest figures of a visit). */
export interface TimelineViewFigures {
  /** Seconds actually played, over every video of the timeline. */
  watchTime: number;
  /** Share of the timeline's length reached, 0..1. */
  completion: number;
}

export interface TimelinePlayerProps {
  /** `creatorName` names the timeline's maker in the system's media controls. */
  timeline: { id: string; title: string; creatorName?: string | null };
  /** The timeline's videos and images, in order; an image is shown for a while (ImageSlide). */
  videos: Video[];
  /** The back control; none in another site's frame (`embedded`). */
  onBack?: () => void;
  /**
   * Shown in another site's frame (the embed page): no back, download or saving, which lead
   * nowhere there; the title opens the timeline on this site in a new tab.
   */
  embedded?: boolean;
  /** Absent when there is no next (or previous) timeline. */
  onNextTimeline?: () => void;
  onPreviousTimeline?: () => void;
  /** The viewer left a video (another video, another timeline, the page, or the tab). */
  onLeaveVideo: (view: TimelineViewFigures) => void;
  /** The video to start at (a link to one video, `?video=`); the first when absent or not in the list. */
  startAt?: string | null;
  /** Seconds into the `startAt` video to start at (a link's `t`); ignored past its end. */
  startTime?: number;
  /**
   * The top bar's Share button (put in by the page), given where the viewer is (`item` from 1,
   * `t` whole seconds) for "Start at current time"; shown to a signed-in viewer.
   */
  share?: (position: () => WatchPosition) => ReactNode;
  /**
   * The top bar's Save to collection button (the collections feature's, put in by the page), shown
   * to a signed-in viewer.
   */
  saveToCollection?: ReactNode;
  /** The top bar's actions on the item on screen (the page's Report), shown to a signed-in viewer. */
  itemActions?: (item: Video) => ReactNode;
  /**
   * Covers an item marked sensitive until the viewer chooses Show (the page's cover; absent when
   * the viewer always shows sensitive media): nothing of it plays or shows meanwhile.
   */
  sensitiveCover?: (item: Video, onShow: () => void) => ReactNode;
  /** What the item's owner and editors, and the moderators, may do to its comments. */
  commentModeration?: CommentModeration;
  /** Staff reviewing a timeline the moderators took out: watched, its comments read, nothing liked or written. */
  readOnly?: boolean;
  /** The viewer is the timeline's owner or an editor: told "Removed by moderators" of an item the moderators hid. */
  team?: boolean;
}

interface WatchStats {
  /** Seconds played in this timeline. */
  watched: number;
  /** Seconds played since the last report. */
  unreported: number;
  /** Furthest point reached in each video. */
  furthest: Map<string, number>;
  /** Length of each video, from the server or the element. */
  durations: Map<string, number>;
  lastTime: number | null;
}

/** How much of the timeline's length the viewer reached. */
export function timelineCompletion(stats: Pick<WatchStats, 'furthest' | 'durations'>): number {
  let total = 0;
  let reached = 0;
  for (const [id, duration] of stats.durations) {
    total += duration;
    reached += Math.min(duration, stats.furthest.get(id) ?? 0);
  }
  return total > 0 ? Math.min(1, reached / total) : 0;
}

/** A jump in currentTime larger than this is a seek, not playing. */
const MAX_PLAY_STEP_S = 1.5;

/**
 * The full-screen player (spec 001, "Watch player"): one video at a time, swipes and arrow
 * buttons to move between videos and timelines, a tap for the controls and a second tap to play
 * or pause.
 */
export function TimelinePlayer({ timeline, videos, onBack, embedded = false, onNextTimeline, onPreviousTimeline, onLeaveVideo, startAt, startTime = 0, share, saveToCollection, itemActions, sensitiveCover, commentModeration, readOnly = false, team = false }: TimelinePlayerProps) {
  const media = useRef<HTMLVideoElement>(null);
  const region = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(() => Math.max(0, startAt ? videos.findIndex((v) => v.id === startAt) : 0));
  const [muted, setMuted] = useState(true);
  const [playing, setPlaying] = useState(false);
  const [userPaused, setUserPaused] = useState(false);
  const [controls, setControls] = useState<{ visible: boolean; changedAt: number }>({ visible: true, changedAt: 0 });
  const [time, setTime] = useState({ current: 0, duration: 0 });
  const [quality, setQuality] = useState<QualitySetting>('auto');
  // How many times the last item has ended (the timeline watched to its end).
  const [finishes, setFinishes] = useState(0);
  const helpId = useId();
  const [fullscreen, setFullscreen] = useState(false);
  const [tapGate] = useState(() => createGate(TAP_DEBOUNCE_MS));
  const [switchGate] = useState(() => createGate(SWITCH_GUARD_MS));
  const pointer = useRef<{ x: number; y: number } | null>(null);
  const statsRef = useRef<WatchStats | null>(null);
  const durations = useRef(new Map(videos.map((item) => [item.id, item.duration])));
  const leave = useRef(onLeaveVideo);
  // Where to seek once the item's video knows its length: a link's `t`, a chapter's start.
  const pendingSeek = useRef<{ index: number; time: number } | null>(startTime > 0 ? { index, time: startTime } : null);

  const conditions = usePlaybackConditions();
  const painted = useAfterFirstPaint();
  // Saving and exporting need an account (spec 001); an embed on another site offers none of it.
  const signedIn = Boolean(useUser().data) && !embedded;
  const video = videos[Math.min(index, videos.length - 1)];
  const image = video ? isImage(video) : false;
  // Sensitive items the viewer chose to show, this visit.
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(() => new Set());
  const covered = Boolean(video?.sensitive && sensitiveCover && !revealed.has(video.id));
  // An item the moderators hid is sent to its timeline's team, told "Removed by moderators" (their
  // notice says why), and to staff, who review it read-only under the desk's note.
  const reviewingItem = readOnly || Boolean(video?.removedByModerators && !team);
  const source = useVideoSource(media, image || covered ? undefined : video, quality, conditions);
  const dataSaver = isDataSaver(conditions);
  const playingNow = image ? !userPaused : playing;
  // While paused nothing is going on to be kept clear of: the controls stay.
  const chromeVisible = controls.visible || !playingNow;
  const preload = canPreload(conditions) ? 'auto' : 'metadata';

  useEffect(() => {
    leave.current = onLeaveVideo;
  }, [onLeaveVideo]);

  // Controls hide 8 s after the last change, while something plays.
  useEffect(() => {
    if (!controls.visible || !playingNow) return;
    const timer = setTimeout(() => setControls({ visible: false, changedAt: Date.now() }), CONTROLS_HIDE_MS);
    return () => clearTimeout(timer);
  }, [controls, playingNow]);

  // Full screen is the player's own element (its controls with it), where the browser allows it.
  useEffect(() => {
    const onChange = () => setFullscreen(Boolean(region.current) && document.fullscreenElement === region.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // A view is recorded when the viewer leaves a video, the page, or the tab.
  const videoId = video?.id;
  useEffect(() => {
    if (!videoId) return;
    const flush = () => {
      const stats = statsRef.current;
      if (!stats) return;
      stats.lastTime = null;
      if (stats.unreported <= 0) return;
      stats.unreported = 0;
      leave.current({ watchTime: Math.round(stats.watched * 10) / 10, completion: timelineCompletion(stats) });
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHidden);
      flush();
    };
  }, [videoId]);

  const showControls = () => setControls({ visible: true, changedAt: Date.now() });
  const canFullscreen = typeof document !== 'undefined' && document.fullscreenEnabled === true;
  const toggleFullscreen = () => {
    const element = region.current;
    if (!element || !canFullscreen) return;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void element.requestFullscreen().catch(() => undefined);
  };

  // Opening the comments pauses the video; closing them resumes it if it was playing (spec 001).
  const resumeAfterComments = useRef(false);
  const onCommentsOpenChange = (open: boolean) => {
    const element = media.current;
    if (!element) return;
    if (open) {
      resumeAfterComments.current = !element.paused;
      element.pause();
    } else if (resumeAfterComments.current) {
      resumeAfterComments.current = false;
      void element.play()?.catch(() => undefined);
    }
  };

  const goTo = (next: number) => {
    if (next < 0 || next >= videos.length || next === index) return;
    if (!switchGate()) return;
    pendingSeek.current = null;
    setIndex(next);
    setTime({ current: 0, duration: 0 });
  };

  const seek = (at: number) => {
    const element = media.current;
    if (element) element.currentTime = at;
    // The label follows the bar at once, not when the video has caught up.
    setTime((current) => ({ ...current, current: at }));
  };
  // J and L, the system's skip buttons: seconds back or forward within the video.
  const skip = (by: number) => {
    const element = media.current;
    if (!element || image) return;
    const end = Number.isFinite(element.duration) ? element.duration : Number.POSITIVE_INFINITY;
    seek(Math.max(0, Math.min(end, element.currentTime + by)));
  };

  // A time in a comment: the video there, playing once the comments close.
  const seekFromComment = (at: number) => {
    seek(at);
    resumeAfterComments.current = true;
  };
  // A chosen chapter: that item at that second (a seek within the item on screen).
  const jumpTo = (next: number, at: number) => {
    if (next < 0 || next >= videos.length) return;
    showControls();
    if (next === index) {
      if (!image) seek(at);
      return;
    }
    pendingSeek.current = at > 0 ? { index: next, time: at } : null;
    setIndex(next);
    setTime({ current: 0, duration: 0 });
  };

  const togglePlay = () => {
    if (image) {
      setUserPaused((paused) => !paused);
      return;
    }
    const element = media.current;
    if (!element) return;
    if (element.paused) {
      setUserPaused(false);
      void element.play()?.catch(() => undefined);
    } else {
      setUserPaused(true);
      element.pause();
    }
  };

  const act = (gesture: Gesture) => {
    switch (gesture) {
      case 'tap':
        if (!tapGate()) return;
        if (chromeVisible) togglePlay();
        showControls();
        return;
      case 'next-video':
        goTo(index + 1);
        return;
      case 'previous-video':
        goTo(index - 1);
        return;
      case 'next-timeline':
        if (onNextTimeline && switchGate()) onNextTimeline();
        return;
      case 'previous-timeline':
        if (onPreviousTimeline && switchGate()) onPreviousTimeline();
        return;
    }
  };

  const onPointerDown = (event: PointerEvent) => {
    pointer.current = { x: event.clientX, y: event.clientY };
    // A click on the picture keeps the keyboard with the player (Space, the arrows).
    region.current?.focus({ preventScroll: true });
  };
  // A mouse moving over the player brings the controls back (a finger taps instead).
  const onPointerMove = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse') return;
    if (!controls.visible || Date.now() - controls.changedAt > 1000) showControls();
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = pointer.current;
    pointer.current = null;
    if (!start) return;
    act(classifyGesture(event.clientX - start.x, event.clientY - start.y));
  };

  // The player's keys work wherever the focus is on its page (after a click on the picture, the
  // page itself), except in a field or in a dialog over it (the comments) that has keys of its own.
  const onKey = (event: globalThis.KeyboardEvent) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target instanceof Element ? event.target : null;
    const own = region.current;
    if (!own || !target) return;
    if (!own.contains(target) && target !== document.body && target !== document.documentElement) return;
    if (target.closest('input, select, textarea, [contenteditable="true"]')) return;
    const keys: Record<string, () => void> = {
      ArrowRight: () => goTo(index + 1),
      ArrowLeft: () => goTo(index - 1),
      ArrowDown: () => onNextTimeline?.(),
      ArrowUp: () => onPreviousTimeline?.(),
      k: togglePlay,
      j: () => skip(-10),
      l: () => skip(10),
      p: () => void togglePictureInPicture(media.current),
      m: () => setMuted((value) => !value),
      f: toggleFullscreen,
    };
    if ((event.key === ' ' || event.key === 'Enter') && target.closest('button, a')) return;
    const run = event.key === ' ' ? togglePlay : keys[event.key];
    if (!run) return;
    event.preventDefault();
    run();
    showControls();
  };
  const keyHandler = useRef(onKey);
  useEffect(() => {
    keyHandler.current = onKey;
  });
  useEffect(() => {
    const listener = (event: globalThis.KeyboardEvent) => keyHandler.current(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const onLoadedMetadata = () => {
    const element = media.current;
    const wanted = pendingSeek.current;
    if (element && wanted && wanted.index === index) {
      pendingSeek.current = null;
      const length = Number.isFinite(element.duration) ? element.duration : 0;
      if (!(length > 0) || wanted.time < length) element.currentTime = wanted.time;
    }
    onTimeUpdate();
  };

  const onTimeUpdate = () => {
    const element = media.current;
    if (!element || !video) return;
    statsRef.current ??= { watched: 0, unreported: 0, furthest: new Map(), durations: durations.current, lastTime: null };
    const stats = statsRef.current;
    const duration = Number.isFinite(element.duration) ? element.duration : 0;
    setTime({ current: element.currentTime, duration });
    if (stats.lastTime !== null && !element.paused) {
      const step = element.currentTime - stats.lastTime;
      if (step > 0 && step <= MAX_PLAY_STEP_S) {
        stats.watched += step;
        stats.unreported += step;
      }
    }
    stats.lastTime = element.currentTime;
    stats.furthest.set(video.id, Math.max(stats.furthest.get(video.id) ?? 0, element.currentTime));
    if (duration > 0) stats.durations.set(video.id, duration);
  };

  if (!video) return null;
  const position = `${index + 1} of ${videos.length}`;
  const onEnded = () => {
    if (index < videos.length - 1) goTo(index + 1);
    else setFinishes((count) => count + 1);
  };

  return (
    <div
      ref={region}
      className={`player${chromeVisible ? ' player--controls' : ''}`}
      role="region"
      aria-label={`${timeline.title}: video player`}
      tabIndex={-1}
      aria-describedby={helpId}
      onPointerMove={onPointerMove}
      onFocus={(event) => {
        if (event.target !== event.currentTarget && !controls.visible) showControls();
      }}
    >
      {covered && sensitiveCover ? (
        sensitiveCover(video, () => setRevealed((shown) => new Set(shown).add(video.id)))
      ) : image ? (
        <ImageSlide key={video.id} image={video} paused={userPaused} onEnded={onEnded} />
      ) : (
      <video
        ref={media}
        className="player__video"
        playsInline
        autoPlay={!userPaused}
        muted={muted}
        preload={preload}
        aria-label={video.title}
        aria-description={video.altText ?? undefined}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onTimeUpdate={onTimeUpdate}
        onLoadedMetadata={onLoadedMetadata}
        onEnded={onEnded}
        onError={() => console.error('The video could not be played', video.id)}
      />
      )}
      <div
        className="player__surface"
        data-testid="player-surface"
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          pointer.current = null;
        }}
      />

      {/* A timeline under review has the note on its page already. */}
      {reviewingItem && !readOnly ? <ModerationReviewNote className="moderation-review-note--player" /> : null}
      <div className="player__top player__chrome">
        {onBack && !embedded ? (
          <button type="button" className="player__icon-button" onClick={onBack} aria-label="Back">
            <ArrowLeftIcon width={22} height={22} />
          </button>
        ) : null}
        <div className="player__heading">
          <h1 className="player__title">
            {embedded ? (
              <a href={`/watch/${encodeURIComponent(timeline.id)}`} target="_blank" rel="noopener noreferrer" title="Open in Timeliner">
                {timeline.title}
              </a>
            ) : (
              timeline.title
            )}
          </h1>
          <p className="player__subtitle">
            <span>{video.title}</span> · <span>{position}</span>
            {video.removedByModerators ? (
              <>
                {' · '}
                {team ? (
                  <Link className="player__removed" to="/moderation/notices">
                    Removed by moderators
                  </Link>
                ) : (
                  <span className="player__removed">Hidden by moderators</span>
                )}
              </>
            ) : null}
          </p>
        </div>
        {signedIn && share ? share(() => ({ item: index + 1, t: image ? 0 : Math.floor(time.current) })) : null}
        {signedIn ? saveToCollection : null}
        {signedIn && itemActions && !reviewingItem ? itemActions(video) : null}
        {signedIn ? <ExportButton timeline={timeline} /> : null}
      </div>
      {/* "Resume at 2:14" comes right after the top bar in the focus order. */}
      {painted ? (
        <Suspense fallback={null}>
          <PlayerSession
            timeline={timeline}
            items={videos}
            index={index}
            media={media}
            playing={playingNow}
            signedIn={signedIn}
            linked={startTime > 0 || Boolean(startAt && startAt !== videos[0]?.id)}
            finishes={finishes}
            onJump={jumpTo}
            onGoTo={goTo}
            onPlay={() => {
              if (!playingNow) togglePlay();
            }}
            onPause={() => {
              if (playingNow) togglePlay();
            }}
            onSeek={(at) => {
              if (!image) seek(at);
            }}
          />
        </Suspense>
      ) : null}

      <ol className="player__dots" aria-label="Videos in this timeline">
        {videos.map((item, at) => (
          <li key={item.id}>
            <button
              type="button"
              className={`player__dot${at === index ? ' is-current' : ''}`}
              aria-label={`${isImage(item) ? 'Image' : 'Video'} ${at + 1} of ${videos.length}: ${item.title}`}
              aria-current={at === index ? 'true' : undefined}
              onClick={() => goTo(at)}
            />
          </li>
        ))}
      </ol>

      <div className="player__arrows player__chrome">
        <button type="button" className="player__icon-button player__arrow player__arrow--prev" onClick={() => goTo(index - 1)} disabled={index === 0} aria-label="Previous video">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="m15 18-6-6 6-6" fill="none" stroke="currentColor" strokeWidth="2" /></svg>
        </button>
        <button type="button" className="player__icon-button player__arrow player__arrow--next" onClick={() => goTo(index + 1)} disabled={index >= videos.length - 1} aria-label="Next video">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="m9 18 6-6-6-6" fill="none" stroke="currentColor" strokeWidth="2" /></svg>
        </button>
        <button type="button" className="player__icon-button player__arrow player__arrow--up" onClick={onPreviousTimeline} disabled={!onPreviousTimeline} aria-label="Previous timeline">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="m18 15-6-6-6 6" fill="none" stroke="currentColor" strokeWidth="2" /></svg>
        </button>
        <button type="button" className="player__icon-button player__arrow player__arrow--down" onClick={onNextTimeline} disabled={!onNextTimeline} aria-label="Next timeline">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="m6 9 6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" /></svg>
        </button>
      </div>

      {/* Likes and comments are per video: an image has none. */}
      {image ? null : (
        <PlayerSocial videoId={video.id} title={video.title} moderation={commentModeration} onCommentsOpenChange={onCommentsOpenChange} duration={time.duration || video.duration} onSeek={seekFromComment} readOnly={reviewingItem} />
      )}
      <div className="player__controls player__chrome">
        {image ? null : (
        <input
          type="range"
          className="player__seek"
          min={0}
          max={time.duration || 0}
          step={0.1}
          value={Math.min(time.current, time.duration || 0)}
          aria-label="Seek"
          aria-valuetext={`${formatDuration(time.current)} of ${formatDuration(time.duration)}`}
          onChange={(event) => {
            seek(Number(event.target.value));
            showControls();
          }}
        />
        )}
        {/* PlayerChapters shows nothing for one item without chapters inside it. */}
        {videos.length > 1 || videoChapters(video).length > 0 ? (
          <AfterPaint painted={painted} slot={<div className="player-chapters-slot" />}>
            <PlayerChapters items={videos} index={index} time={time.current} duration={time.duration} onJump={jumpTo} panelHost={region} />
          </AfterPaint>
        ) : null}
        <div className="player__buttons">
          <button type="button" className="player__icon-button" onClick={togglePlay} aria-label={playingNow ? 'Pause' : 'Play'}>
            {playingNow ? (
              <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="M8 5v14M16 5v14" stroke="currentColor" strokeWidth="3" /></svg>
            ) : (
              <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="M7 4v16l13-8z" fill="currentColor" /></svg>
            )}
          </button>
          {image ? null : (
          <>
          <button type="button" className="player__icon-button" onClick={() => setMuted((value) => !value)} aria-label={muted ? 'Unmute' : 'Mute'} aria-pressed={muted}>
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
              <path d="M11 5 6 9H2v6h4l5 4z" fill="currentColor" />
              {muted ? <path d="m23 9-6 6M17 9l6 6" stroke="currentColor" strokeWidth="2" /> : <path d="M15.5 8.5a5 5 0 0 1 0 7M19 5a10 10 0 0 1 0 14" fill="none" stroke="currentColor" strokeWidth="2" />}
            </svg>
          </button>
          <span className="player__time">
            {formatDuration(time.current)} / {formatDuration(time.duration)}
          </span>
          </>
          )}
          {/*
            The parts known only later sit next to the free space between them, where they push
            nothing: the captions (their chunk, then the video's tracks) on its left, the quality
            (once the stream's renditions are read) on its right; the others keep a box meanwhile.
          */}
          <div className="player__options">
          {!image && painted ? (
            <Suspense fallback={null}>
              <PlayerCaptions
                key={video.id}
                videoId={video.id}
                media={media}
                panelHost={region}
                onSeek={seek}
              />
            </Suspense>
          ) : null}
          <span className="player__spacer" />
          {!image && source.heights.length > 0 ? (
            <label className="player__quality">
              <span className="visually-hidden">Video quality</span>
              <select value={quality} onChange={(event) => setQuality(event.target.value as QualitySetting)}>
                <option value="auto">Auto ({source.playingHeight && quality === 'auto' ? `${source.playingHeight}p` : source.wanted})</option>
                {offeredQualities(source.heights).map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {video.altText ? (
            <AfterPaint painted={painted} slot={<span className="player__alt-slot" />}>
              <PlayerAltText key={video.id} text={video.altText} kind={image ? 'image' : 'video'} panelHost={region} />
            </AfterPaint>
          ) : null}
          {dataSaver ? <span className="player__badge">Data saver</span> : null}
          {!image && pictureInPictureSupported() ? (
            <AfterPaint painted={painted} slot={<span className="player__icon-slot" />}>
              <PictureInPictureButton media={media} itemId={video.id} />
            </AfterPaint>
          ) : null}
          {canFullscreen ? (
            <button type="button" className="player__icon-button" onClick={toggleFullscreen} aria-label={fullscreen ? 'Exit full screen' : 'Full screen'}>
              {fullscreen ? (
                <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" fill="none" stroke="currentColor" strokeWidth="2" /></svg>
              ) : (
                <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" fill="none" stroke="currentColor" strokeWidth="2" /></svg>
              )}
            </button>
          ) : null}
          </div>
        </div>
      </div>
      <PlayerAnnouncer items={videos} index={index} region={region} helpId={helpId} />
    </div>
  );
}
