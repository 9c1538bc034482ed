import { formatDuration } from '../../../lib/format';

/** While playing, the place is saved at most this often (and at once on a pause or when the page is left). */
export const SAVE_EVERY_MS = 10_000;
/** A place this close to the timeline's start is nothing to resume, and saving waits for it. */
export const MIN_RESUME_S = 5;
/** A place this close to the end of the last item: the timeline was watched. */
export const END_MARGIN_S = 5;

export interface Place {
  itemId: string;
  seconds: number;
}

export interface ResumeItem {
  id: string;
  title: string;
  /** Seconds; 0 or absent when not known (an image). */
  duration?: number | null;
}

export interface ResumeOffer {
  index: number;
  seconds: number;
  /** The button's text: "Resume at 2:14". */
  label: string;
}

/** What to offer for a saved place: nothing when its item is gone, or it is the start or the very end. */
export function resumeOffer(place: Place | null | undefined, items: readonly ResumeItem[]): ResumeOffer | null {
  if (!place) return null;
  const index = items.findIndex((item) => item.id.toLowerCase() === place.itemId.toLowerCase());
  if (index < 0) return null;
  const seconds = Math.max(0, Math.floor(place.seconds));
  if (index === 0 && seconds < MIN_RESUME_S) return null;
  const duration = items[index]!.duration ?? 0;
  if (duration > 0 && seconds >= duration) return index === items.length - 1 ? null : { index: index + 1, seconds: 0, label: 'Resume at 0:00' };
  if (index === items.length - 1 && duration > 0 && seconds >= duration - END_MARGIN_S) return null;
  return { index, seconds, label: `Resume at ${formatDuration(seconds)}` };
}

export interface PlaceSaver {
  /** The viewer is here now: saved if the last save is `SAVE_EVERY_MS` old. */
  note(place: Place): void;
  /** Saves the latest place now unless it is the one already saved (a pause, the page hidden or left). */
  flush(options?: { keepalive?: boolean }): void;
  /** The timeline was watched to its end: the saved place is forgotten, until the viewer plays on. */
  finish(options?: { keepalive?: boolean }): void;
}

export function createPlaceSaver(
  save: (place: Place, options: { keepalive: boolean }) => void,
  clear: (options: { keepalive: boolean }) => void,
  { now = Date.now, everyMs = SAVE_EVERY_MS }: { now?: () => number; everyMs?: number } = {},
): PlaceSaver {
  let latest: Place | null = null;
  let saved: Place | null = null;
  let savedAt = Number.NEGATIVE_INFINITY;
  let finished = false;

  const flush = ({ keepalive = false }: { keepalive?: boolean } = {}) => {
    if (!latest || finished) return;
    if (saved && saved.itemId === latest.itemId && Math.abs(saved.seconds - latest.seconds) < 1) return;
    saved = latest;
    savedAt = now();
    save(latest, { keepalive });
  };
  return {
    note(place) {
      latest = { itemId: place.itemId, seconds: Math.round(Math.max(0, place.seconds) * 10) / 10 };
      finished = false;
      if (now() - savedAt >= everyMs) flush();
    },
    flush,
    finish({ keepalive = false } = {}) {
      if (finished) return;
      finished = true;
      latest = null;
      saved = null;
      savedAt = Number.NEGATIVE_INFINITY;
      clear({ keepalive });
    },
  };
}

/**
 * Runs tasks one after another, so a clear never overtakes the save sent just before it (the end
 * of a video pauses it, then ends it). Failures do not stop the queue.
 */
export function serially(): (task: () => Promise<void>) => void {
  let last: Promise<void> = Promise.resolve();
  return (task) => {
    last = last.then(task, task);
  };
}
