import { ApiPropertyOptional } from '@nestjs/swagger';
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
export type { CursorKey } from '@timeliner/platform';

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

// The cursor format and its strict checks are shared by every service.
export { cursorTimestamp, decodeCursor, encodeCursor } from '@timeliner/platform';
