import { applyDecorators, type Type as Class } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { MAX_CURSOR_LENGTH } from './cursor.js';

/**
 * Keyset pagination of every list: `?limit` and `?cursor` in, the page's items as the body, the
 * next page's cursor in the `X-Next-Cursor` header (absent on the last page). The cursor itself
 * is made and checked by `encodeCursor`/`decodeCursor` (cursor.ts).
 *
 *   export class NotificationPageQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 50 }) {}
 *
 *   @ApiOkResponse({ type: [NotificationDto], headers: nextCursorHeaderDoc() })
 *   async list(@Query() query: NotificationPageQueryDto, @Res({ passthrough: true }) reply: FastifyReply) {
 *     return sendPage(reply, await this.notifications.list(caller, query));
 *   }
 */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** One page of a list; the service returns it, the controller sends it with `sendPage`. */
export interface Page<T> {
  items: T[];
  /** Absent on the last page. */
  nextCursor?: string;
}

/** Sets the next-cursor header (when there is a next page) and returns the page's items as the body. */
export function sendPage<T>(reply: FastifyReply, page: Page<T>): T[] {
  setNextCursor(reply, page.nextCursor);
  return page.items;
}

/** Sets the next-cursor header when there is a next page: for answers whose body is not the plain list. */
export function setNextCursor(reply: FastifyReply, nextCursor: string | undefined): void {
  if (nextCursor) void reply.header(NEXT_CURSOR_HEADER, nextCursor);
}

/** The header in the OpenAPI description of a paged answer: `@ApiOkResponse({ type, headers: nextCursorHeaderDoc() })`. */
export const nextCursorHeaderDoc = (description = 'Cursor of the next page; absent on the last page') => ({
  'X-Next-Cursor': { description, schema: { type: 'string' as const } },
});

export interface PageLimitOptions {
  /** The largest page a client may ask for. */
  max: number;
  /** The page size when `limit` is absent (shown in the OpenAPI description). */
  default?: number;
  /** For the OpenAPI description; none when absent. */
  description?: string;
}

/** The `limit` field of a query: a whole number from 1 to `max`, else 400 with one message (`@PageLimit({ max: 50, default: 10 }) limit?: number`). */
export function PageLimit(options: PageLimitOptions): PropertyDecorator {
  const message = `Limit must be a whole number from 1 to ${options.max}`;
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 1,
      maximum: options.max,
      ...(options.default === undefined ? {} : { default: options.default }),
      ...(options.description === undefined ? {} : { description: options.description }),
    }),
    IsOptional(),
    Type(() => Number),
    IsInt({ message }),
    Min(1, { message }),
    Max(options.max, { message }),
  );
}

/** The `cursor` field of a list's query: a string of at most MAX_CURSOR_LENGTH, else 400 'Invalid cursor'. */
export function PageCursor(description = 'The X-Next-Cursor header of the previous page'): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ description }),
    IsOptional(),
    IsString({ message: 'Invalid cursor' }),
    MaxLength(MAX_CURSOR_LENGTH, { message: 'Invalid cursor' }),
  );
}

export interface PageQueryOptions {
  defaultLimit?: number;
  maxLimit: number;
}

/** What every page query holds. */
export interface PageQueryFields {
  limit?: number;
  cursor?: string;
}

/**
 * The query class of a list: `class XPageQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 50 }) {}`
 * (a named subclass, so the OpenAPI description and error messages read as the service's own).
 * A list with more query fields adds them in its subclass.
 */
export function PageQuery(options: PageQueryOptions): Class<PageQueryFields> {
  class PageQueryBase implements PageQueryFields {
    @PageLimit({ max: options.maxLimit, default: options.defaultLimit, description: 'Page size' })
    limit?: number;

    @PageCursor()
    cursor?: string;
  }
  return PageQueryBase;
}
