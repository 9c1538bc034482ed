import { BadRequestException } from '@nestjs/common';

/**
 * Keyset cursors: the sort key of the last row of a page, opaque to clients (base64url JSON).
 * Timestamps travel as Postgres text with microseconds, so no row is skipped or repeated at a
 * page boundary.
 */
export type CursorKey = Array<string | number>;

export const encodeCursor = (key: CursorKey): string => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Decodes a cursor whose parts have the given kinds, or answers 400. */
export function decodeCursor<const K extends ReadonlyArray<'int' | 'timestamp' | 'uuid'>>(cursor: string, kinds: K): CursorKey {
  const invalid = () => new BadRequestException('Invalid cursor');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== kinds.length) throw invalid();
  kinds.forEach((kind, i) => {
    const part: unknown = parsed[i];
    const ok =
      kind === 'int' ? Number.isSafeInteger(part) : kind === 'timestamp' ? typeof part === 'string' && TIMESTAMP.test(part) : typeof part === 'string' && UUID.test(part);
    if (!ok) throw invalid();
  });
  return parsed as CursorKey;
}

/** SQL for a timestamp column as cursor text (UTC, microseconds). */
export const cursorTimestamp = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export interface Page<T> {
  items: T[];
  /** Absent on the last page. */
  nextCursor?: string;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
