import { BadRequestException } from '@nestjs/common';
import { isUuid } from '../payload/payload-checks.js';

/**
 * Keyset cursors: the sort key of the last row of a page, opaque to clients (base64url JSON).
 * Timestamps travel as Postgres text with microseconds, so no row is skipped or repeated at a
 * page boundary.
 *
 * A cursor comes from the client, so every part is checked to be something the database can
 * compare without failing: a timestamp that is a real instant (no month 13, no 25th hour), an
 * integer within Postgres's `integer` (or, for 'bigint', JavaScript's safe range), a lower-case
 * UUID. Anything else is `400 Invalid cursor`, never a database error.
 */
export type CursorKey = Array<string | number>;
export type CursorPart = 'int' | 'bigint' | 'timestamp' | 'uuid';

export const encodeCursor = (key: CursorKey): string => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{6})Z$/;
const INT4_MIN = -(2 ** 31);
const INT4_MAX = 2 ** 31 - 1;
/** The longest cursor any list makes, with room to spare. */
export const MAX_CURSOR_LENGTH = 200;

function isInstant(text: string): boolean {
  const m = TIMESTAMP.exec(text);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  if (y < 1970 || y > 9999) return false;
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && date.getUTCHours() === h && date.getUTCMinutes() === mi && date.getUTCSeconds() === s;
}

function partOk(kind: CursorPart, part: unknown): boolean {
  switch (kind) {
    case 'int':
      return Number.isInteger(part) && (part as number) >= INT4_MIN && (part as number) <= INT4_MAX;
    case 'bigint':
      return Number.isSafeInteger(part);
    case 'timestamp':
      return typeof part === 'string' && isInstant(part);
    case 'uuid':
      // Lower case only: the form ids are stored in, and the only form a cursor is made with.
      return typeof part === 'string' && isUuid(part) && part === part.toLowerCase();
  }
}

/** Decodes a cursor whose parts have the given kinds, or answers 400 'Invalid cursor'. */
export function decodeCursor(cursor: string, kinds: ReadonlyArray<CursorPart>): CursorKey {
  const invalid = () => new BadRequestException('Invalid cursor');
  if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR_LENGTH) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== kinds.length) throw invalid();
  kinds.forEach((kind, i) => {
    if (!partOk(kind, parsed[i])) throw invalid();
  });
  return parsed as CursorKey;
}

/** SQL for a timestamp column as cursor text (UTC, microseconds). */
export const cursorTimestamp = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
