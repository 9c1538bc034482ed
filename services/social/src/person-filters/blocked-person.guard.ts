import { type CanActivate, type ExecutionContext, NotFoundException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { callerOf, isUuid } from '@timeliner/platform';
import type { PersonFilterRepository } from './person-filter.repository.js';

/** The routes about one person: `/api/users/:id/...`. */
const PERSON_ROUTE = /^\/api\/users\/:id\/(?<rest>.+)$/u;
/** The routes about one post or collection (`/api/posts/:id`, `/api/collections/:id` and below): its author counts as the person. */
const OWNED_ROUTE = /^\/api\/(?<kind>posts|collections)\/:id(\/|$)/u;
/** Of those, the ones a blocker needs to lift the block (or that say nothing of the person). */
const OPEN_TO_A_BLOCKED_PAIR = new Set(['block']);

/**
 * Every route of this service about a person or one of their posts (their follows, lists, timelines, activity, and any
 * added later under `/api/users/:id/`) answers 404 "User not found" to someone they blocked or who
 * blocked them, as if the person (or the post, the collection) did not exist. Only blocking stays
 * open (so a block can be lifted). Registered for every route of the service (APP_GUARD), so a new
 * person route is
 * covered without naming it.
 */
export class BlockedPersonGuard implements CanActivate {
  constructor(private readonly filters: PersonFilterRepository) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const request = ctx.switchToHttp().getRequest<FastifyRequest>();
    const route = request.routeOptions?.url ?? '';
    const person = PERSON_ROUTE.exec(route);
    const owned = OWNED_ROUTE.exec(route)?.groups?.kind;
    if ((!person || OPEN_TO_A_BLOCKED_PAIR.has(person.groups!.rest!)) && !owned) return true;
    const callerId = callerOf(request)?.userId;
    const id = (request.params as Record<string, unknown> | undefined)?.id;
    if (!callerId || typeof id !== 'string' || !isUuid(id)) return true;
    const personId = owned === 'posts' ? await this.filters.postAuthor(id.toLowerCase()) : owned === 'collections' ? await this.filters.collectionOwner(id.toLowerCase()) : id.toLowerCase();
    if (personId && (await this.filters.blockedEitherWay(callerId.toLowerCase(), personId))) {
      throw new NotFoundException(owned === 'posts' ? 'Post not found' : owned === 'collections' ? 'Collection not found' : 'User not found');
    }
    return true;
  }
}
