import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { from, mergeMap, type Observable } from 'rxjs';
import { callerOf, matchesMutedWord } from '@timeliner/platform';
import type { PersonFilterRepository } from './person-filter.repository.js';

/** The comment lists and single comments of posts, timelines and videos, with their replies. */
const COMMENT_ROUTE = /^\/api\/(posts|timelines|videos)\/:id\/comments(\/|$)/u;
/** Lists of people, whose items are the people themselves (`id`). */
const PEOPLE_ROUTE = /^\/api\/users\/:id\/(followers|following-list)$|^\/api\/follow-requests$/u;

/** A person's activity: whom or whose timeline each item is about. */
const ACTIVITY_ROUTE = /^\/api\/users\/:id\/activity$/u;

/** Whose an item of any other list is: its author or creator. */
const ownerOfItem = (item: unknown, people: boolean): string | undefined => {
  if (typeof item !== 'object' || item === null) return undefined;
  const o = item as { id?: unknown; userId?: unknown; creatorId?: unknown; user?: { id?: unknown } | null };
  const id = people ? o.id : (o.user && typeof o.user.id === 'string' ? o.user.id : (o.userId ?? o.creatorId));
  return typeof id === 'string' ? id.toLowerCase() : undefined;
};

/** A comment as every comment answer shows it: its author (`user.id` or `userId`), its text, maybe replies. */
interface CommentLike {
  userId?: unknown;
  user?: { id?: unknown } | null;
  content?: unknown;
  replies?: unknown;
  hiddenByFilters?: boolean;
}

const authorOf = (c: CommentLike): string | undefined => {
  const id = c.user && typeof c.user.id === 'string' ? c.user.id : typeof c.userId === 'string' ? c.userId : undefined;
  return id?.toLowerCase();
};

const isComment = (value: unknown): value is CommentLike => typeof value === 'object' && value !== null && typeof (value as CommentLike).content === 'string' && authorOf(value as CommentLike) !== undefined;

/**
 * Blocks and mutes on comments and lists (issue 28), for every answer of this service (registered
 * for every route, APP_INTERCEPTOR; the comment routes are found by their path, so a new one is
 * covered; any other list drops the blocked pair's items, see dropBlocked). The comments of someone the caller blocked or who blocked the caller are left out,
 * replies too; those of a muted account or with a muted word stay, marked `hiddenByFilters` (the
 * screen collapses them: "Hidden by your filters", revealable). A blocker can still delete the
 * blocked person's comments on their own items: deleting answers no comment.
 */
export class CommentFilterInterceptor implements NestInterceptor {
  constructor(private readonly filters: PersonFilterRepository) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const request = ctx.switchToHttp().getRequest<FastifyRequest>();
    const callerId = callerOf(request)?.userId?.toLowerCase();
    const route = request.routeOptions?.url ?? '';
    if (!callerId || request.method !== 'GET') return next.handle();
    if (COMMENT_ROUTE.test(route)) return next.handle().pipe(mergeMap((body: unknown) => from(this.apply(callerId, body))));
    if (ACTIVITY_ROUTE.test(route)) return next.handle().pipe(mergeMap((body: unknown) => from(this.dropBlockedTargets(callerId, body))));
    return next.handle().pipe(mergeMap((body: unknown) => from(this.dropBlocked(callerId, body, PEOPLE_ROUTE.test(route)))));
  }

  /** Activity items about someone blocked either way with the caller, or about their timelines, are left out. */
  async dropBlockedTargets(callerId: string, body: unknown): Promise<unknown> {
    if (!Array.isArray(body) || body.length === 0) return body;
    const items = body as Array<{ targetType?: unknown; targetId?: unknown }>;
    const timelineIds = items.filter((i) => i.targetType === 'timeline' && typeof i.targetId === 'string').map((i) => i.targetId as string);
    const creators = new Map((timelineIds.length ? await this.filters.timelineCreators(timelineIds) : []).map((t) => [t.id, t.creatorId.toLowerCase()]));
    const whom = (i: { targetType?: unknown; targetId?: unknown }) => (typeof i.targetId !== 'string' ? undefined : i.targetType === 'user' ? i.targetId.toLowerCase() : creators.get(i.targetId));
    const people = [...new Set(items.map(whom).filter((id): id is string => !!id && id !== callerId))];
    if (people.length === 0) return body;
    const { blocked } = await this.filters.viewOf(callerId, people);
    return blocked.size === 0 ? body : items.filter((i) => !blocked.has(whom(i) ?? ''));
  }

  /**
   * Any other list this service answers: an item by (or being) someone blocked either way with
   * the caller is left out, so a list added later cannot show a blocked pair to each other.
   */
  async dropBlocked(callerId: string, body: unknown, people: boolean): Promise<unknown> {
    if (!Array.isArray(body) || body.length === 0) return body;
    const owners = [...new Set(body.map((item) => ownerOfItem(item, people)).filter((id): id is string => !!id && id !== callerId))];
    if (owners.length === 0) return body;
    const { blocked } = await this.filters.viewOf(callerId, owners);
    if (blocked.size === 0) return body;
    return body.filter((item) => !blocked.has(ownerOfItem(item, people) ?? ''));
  }

  /** The answer with the caller's filters applied (a list, or one comment). */
  async apply(callerId: string, body: unknown): Promise<unknown> {
    const comments = Array.isArray(body) ? body.filter(isComment) : isComment(body) ? [body] : [];
    const all = comments.flatMap((c) => [c, ...(Array.isArray(c.replies) ? c.replies.filter(isComment) : [])]);
    const authors = [...new Set(all.map(authorOf).filter((id): id is string => !!id && id !== callerId))];
    const view = await this.filters.viewOf(callerId, authors);
    if (view.blocked.size === 0 && view.muted.size === 0 && view.words.length === 0) return body;
    const shown = (c: CommentLike) => !view.blocked.has(authorOf(c)!);
    const mark = (c: CommentLike): CommentLike => {
      const author = authorOf(c)!;
      const hidden = author !== callerId && (view.muted.has(author) || view.words.some((w) => matchesMutedWord(c.content as string, w)));
      const replies = Array.isArray(c.replies) ? c.replies.filter((r) => !isComment(r) || shown(r)).map((r) => (isComment(r) ? mark(r) : r)) : c.replies;
      return { ...c, ...(replies !== undefined ? { replies } : {}), hiddenByFilters: hidden };
    };
    if (Array.isArray(body)) return body.filter((c) => !isComment(c) || shown(c)).map((c) => (isComment(c) ? mark(c) : c));
    return isComment(body) ? mark(body) : body;
  }
}
