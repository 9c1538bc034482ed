import { ApiPropertyOptional } from '@nestjs/swagger';
import { BadRequestException } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { FastifyReply } from 'fastify';

/**
 * Keyset pagination shared by the service's lists: `?limit` and `?cursor` in, the page as a plain
 * array out (the spec's list shapes), and the next page's cursor in the `X-Next-Cursor` header.
 *
 * A cursor is the sort key of the last row of a page, opaque to clients (base64url JSON).
 * Timestamps travel as Postgres text with microseconds, so no row is skipped or repeated at a
 * page boundary.
 */
export type CursorKey = Array<string | number>;

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

const LIMIT_MESSAGE = `Limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`;

export class PageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'Page size' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_PAGE_SIZE, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({ description: 'The X-Next-Cursor header of the previous page' })
  @IsOptional()
  @IsString({ message: 'Invalid cursor' })
  @MaxLength(200, { message: 'Invalid cursor' })
  cursor?: string;
}

/** For `@ApiOkResponse({ headers })` of a paginated list. */
export const nextCursorHeaderDoc = {
  'X-Next-Cursor': { description: 'Cursor of the next page; absent on the last page', schema: { type: 'string' } },
};

export interface Page<T> {
  items: T[];
  /** Absent on the last page. */
  nextCursor?: string;
}

/** Sets the next-cursor header and returns the page's items as the body. */
export const sendPage = <T>(reply: FastifyReply, page: Page<T>): T[] => {
  if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
  return page.items;
};

export const encodeCursor = (key: CursorKey): string => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Decodes a cursor whose parts have the given kinds, or answers 400. */
export function decodeCursor(cursor: string, kinds: ReadonlyArray<'int' | 'timestamp' | 'uuid'>): CursorKey {
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
export const cursorTimestamp = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
