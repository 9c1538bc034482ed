// Keyset cursors: the format and its strict checks are shared by every service (@timeliner/platform).
export { type CursorKey, cursorTimestamp, decodeCursor, encodeCursor } from '@timeliner/platform';

export interface Page<T> {
  items: T[];
  /** Absent on the last page. */
  nextCursor?: string;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
