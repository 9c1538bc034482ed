import { parseClockTime } from './chapters';

/**
 * Links into the player: `/watch/{id}?item=3&t=42` opens the timeline's third item (counted from
 * 1, in the timeline's order among the items the player can show, as its "3 of 5" counts them: a
 * video still being processed is not counted) at its 42nd second. The older `?video={id}`
 * (a notification's link to one video) still works; `item` wins when both are given and valid.
 */

/** Where in a timeline: `item` counted from 1, `t` whole seconds into it. */
export interface WatchPosition {
  item: number;
  t: number;
}

/** The player's address, with the item and second to start at when given (`t` left out at 0). */
export function watchLink(origin: string, timelineId: string, at?: WatchPosition | null): string {
  const base = `${origin}/watch/${encodeURIComponent(timelineId)}`;
  if (!at || !Number.isInteger(at.item) || at.item < 1) return base;
  const t = Number.isFinite(at.t) && at.t > 0 ? Math.floor(at.t) : 0;
  return t > 0 ? `${base}?item=${at.item}&t=${t}` : `${base}?item=${at.item}`;
}

// `42`, `42.5`, `42s`, `1m23s`, `1h2m3s`, `2h`: how start times are written in links.
const UNITS = /^(?:(\d{1,3})h)?(?:(\d{1,4})m)?(?:(\d{1,6})s?)?$/i;

/** Seconds from a link's `t` (`42`, `42.5`, `1:23`, `1m23s`), or null when it is not a time. */
export function parseStartTime(value: string | null | undefined): number | null {
  const text = (value ?? '').trim();
  if (!text) return null;
  if (/^\d{1,6}(?:\.\d+)?$/.test(text)) return Math.floor(Number(text));
  const clock = parseClockTime(text);
  if (clock !== null) return clock;
  const units = UNITS.exec(text);
  if (!units || !(units[1] || units[2] || units[3])) return null;
  return Number(units[1] ?? 0) * 3600 + Number(units[2] ?? 0) * 60 + Number(units[3] ?? 0);
}

/** What the player needs of an item to start in it. */
export interface StartableItem {
  id: string;
  /** Seconds; 0 when not known yet. */
  duration: number;
  mediaType?: string;
}

/** Why a link's start point was not followed (the player then starts as said in `StartPoint`). */
export type StartProblem = 'item' | 'time';

export interface StartPoint {
  /** Index into the items (from 0). */
  index: number;
  /** Seconds into that item; 0 for the start. */
  time: number;
  /** What of the link was not followed, if anything: shown to the viewer, never an error page. */
  problem: StartProblem | null;
}

/**
 * Where a link starts the player among `items`. A bad `item` (not a whole number from 1 to the
 * count) starts at the `video` named, or the first item, from its start (the `t` was about the
 * missing item); a bad `t` (not a time, or past the item's end) starts at the item's start. A
 * time in an image is ignored: an image has no seconds to start at.
 */
export function resolveStart(search: URLSearchParams, items: readonly StartableItem[]): StartPoint {
  const byVideo = () => {
    const video = search.get('video');
    const found = video ? items.findIndex((item) => item.id === video) : -1;
    return Math.max(0, found);
  };
  const itemParam = search.get('item');
  let index: number;
  if (itemParam !== null) {
    const item = /^\d{1,6}$/.test(itemParam.trim()) ? Number(itemParam.trim()) : NaN;
    if (!(item >= 1 && item <= items.length)) return { index: byVideo(), time: 0, problem: 'item' };
    index = item - 1;
  } else {
    index = byVideo();
  }
  const tParam = search.get('t');
  if (tParam === null || items.length === 0) return { index, time: 0, problem: null };
  const time = parseStartTime(tParam);
  const target = items[index];
  if (time === null) return { index, time: 0, problem: 'time' };
  if (target?.mediaType === 'image') return { index, time: 0, problem: null };
  if (target && target.duration > 0 && time >= target.duration) return { index, time: 0, problem: 'time' };
  return { index, time, problem: null };
}

/** What the viewer is told when a link's start point could not be followed. */
export function startProblemMessage(problem: StartProblem, point: StartPoint): { title: string; description: string } {
  return problem === 'item'
    ? { title: 'That part of the timeline is not here', description: 'Playing from the start instead.' }
    : { title: 'That time is not in this video', description: `Playing item ${point.index + 1} from its start instead.` };
}
