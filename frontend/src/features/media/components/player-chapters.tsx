import { useEffect, useId, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { chapterAt, formatClockTime, type Chapter } from '../../../lib/chapters';
import type { Video } from '../api/types';
import { isImage } from '../lib/media-kind';
import { itemLength, locateOnTimeline, timelineClock, videoChapters } from '../lib/video-chapters';
import './player-chapters.css';

export interface PlayerChaptersProps {
  /** The timeline's items, in the player's order. */
  items: readonly Video[];
  /** The item on screen (from 0). */
  index: number;
  /** Seconds into it. */
  time: number;
  /** Its length as the video element knows it (0 until known). */
  duration: number;
  /** Opens item `index` at `seconds` (the same item: a seek). */
  onJump: (index: number, seconds: number) => void;
  /** Where the Chapters panel goes: the player's own region (it stays while the controls hide). */
  panelHost: RefObject<HTMLElement | null>;
}

const kindOf = (item: Video) => (isImage(item) ? 'Image' : 'Video');

/**
 * The timeline as chapters (loaded after the player's first paint): one scrubber over the whole
 * timeline, each item a stretch of it with the chapters inside a video marked, and a Chapters
 * panel listing the items and their chapters, each a button that jumps there.
 */
export default function PlayerChapters({ items, index, time, duration, onJump, panelHost }: PlayerChaptersProps) {
  const [open, setOpen] = useState(false);
  const [scrub, setScrub] = useState<number | null>(null);
  const [hover, setHover] = useState<{ left: number; text: string } | null>(null);
  const dragging = useRef(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const panelId = useId();

  const lengths = useMemo(() => items.map((item, at) => (at === index && duration > 0 && !isImage(item) ? duration : itemLength(item))), [items, index, duration]);
  const { starts, total } = useMemo(() => timelineClock(lengths), [lengths]);
  // Each video's own chapters, up to its length where known (not the scrubber's stand-in length).
  const chapters = useMemo(() => items.map((item, at) => videoChapters(item, at === index && duration > 0 ? duration : item.duration)), [items, index, duration]);

  const current = items[index];
  const inVideo = chapters[index] ?? [];
  const chapterNow = chapterAt(inVideo, time);
  const now = (starts[index] ?? 0) + Math.min(time, lengths[index] ?? 0);
  const shown = scrub ?? now;

  // Escape closes the panel and gives the focus back to its button.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  // The panel opens with the focus on the item playing.
  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLButtonElement>('button[aria-current="true"]')?.focus({ preventScroll: false });
  }, [open]);

  // One item with no chapters inside it: nothing to show.
  if (!current || (items.length < 2 && inVideo.length === 0)) return null;

  const describe = (at: number) => {
    const spot = locateOnTimeline(starts, lengths, at);
    const item = items[spot.index];
    if (!item) return '';
    const chapter = chapterAt(chapters[spot.index] ?? [], spot.seconds);
    return `${spot.index + 1}. ${item.title}${chapter ? ` · ${chapter.title}` : ''}`;
  };
  const commit = (at: number) => {
    const spot = locateOnTimeline(starts, lengths, at);
    onJump(spot.index, isImage(items[spot.index] ?? current) ? 0 : spot.seconds);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLInputElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0) return;
    const share = Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
    setHover({ left: share * 100, text: describe(share * total) });
  };
  const endDrag = () => {
    if (!dragging.current) return;
    dragging.current = false;
    if (scrub !== null) commit(scrub);
    setScrub(null);
  };
  const jump = (to: number, seconds: number) => {
    onJump(to, seconds);
    setOpen(false);
    toggle.current?.focus();
  };

  const valueText = `${kindOf(current)} ${index + 1} of ${items.length}: ${current.title}${chapterNow ? `, chapter ${chapterNow.title}` : ''}, ${formatClockTime(time)}`;

  const list =
    open && panelHost.current
      ? createPortal(
          <section ref={panel} id={panelId} className="player-chapters__panel" aria-label="Chapters">
            <h2 className="player-chapters__title">Chapters</h2>
            <ol className="player-chapters__list">
              {items.map((item, at) => (
                <li key={item.id}>
                  <button type="button" className="player-chapters__item" aria-current={at === index && !chapterNow ? 'true' : undefined} onClick={() => jump(at, 0)}>
                    <span className="player-chapters__time">{formatClockTime(starts[at] ?? 0)}</span>
                    <span>
                      <span className="visually-hidden">{`${kindOf(item)} ${at + 1}: `}</span>
                      {item.title}
                    </span>
                  </button>
                  {(chapters[at] ?? []).length > 0 ? (
                    <ol className="player-chapters__sublist" aria-label={`Chapters of ${item.title}`}>
                      {(chapters[at] ?? []).map((chapter: Chapter) => (
                        <li key={chapter.start}>
                          <button
                            type="button"
                            className="player-chapters__item player-chapters__item--inner"
                            aria-current={at === index && chapterNow?.start === chapter.start ? 'true' : undefined}
                            onClick={() => jump(at, chapter.start)}
                          >
                            <span className="player-chapters__time">{formatClockTime(chapter.start)}</span>
                            <span>{chapter.title}</span>
                          </button>
                        </li>
                      ))}
                    </ol>
                  ) : null}
                </li>
              ))}
            </ol>
          </section>,
          panelHost.current,
        )
      : null;

  return (
    <div className="player-chapters">
      <div className="player-chapters__strip">
        <div className="player-chapters__segments" aria-hidden="true">
          {items.map((item, at) => {
            const length = lengths[at] ?? 0;
            const played = at < index ? 1 : at > index ? 0 : length > 0 ? Math.min(1, (shown - (starts[at] ?? 0)) / length) : 0;
            return (
              <span key={item.id} className={`player-chapters__segment${at === index ? ' is-current' : ''}`} style={{ flexGrow: length }}>
                <span className="player-chapters__played" style={{ width: `${Math.max(0, played) * 100}%` }} />
                {(chapters[at] ?? [])
                  .filter((chapter) => chapter.start > 0)
                  .map((chapter) => (
                    <span key={chapter.start} className="player-chapters__mark" style={{ left: `${(chapter.start / (length || 1)) * 100}%` }} />
                  ))}
              </span>
            );
          })}
        </div>
        <input
          type="range"
          className="player-chapters__range"
          min={0}
          max={total}
          step={1}
          value={Math.min(shown, total)}
          aria-label="Timeline position"
          aria-valuetext={valueText}
          onPointerDown={() => {
            dragging.current = true;
          }}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
          onPointerMove={onPointerMove}
          onPointerLeave={() => setHover(null)}
          onChange={(event) => {
            const at = Number(event.target.value);
            if (dragging.current) setScrub(at);
            else commit(at);
          }}
        />
        {hover ? (
          <span className="player-chapters__tip" style={{ left: `${hover.left}%` }} aria-hidden="true">
            {hover.text}
          </span>
        ) : null}
      </div>
      <button
        ref={toggle}
        type="button"
        className="button button--ghost button--sm player-chapters__toggle"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        Chapters
      </button>
      <p className="player-chapters__now" aria-live="polite">
        {chapterNow ? <span className="player-chapters__now-title">{chapterNow.title}</span> : null}
      </p>
      {list}
    </div>
  );
}
