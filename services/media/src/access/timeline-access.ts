import { ForbiddenException, NotFoundException, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { type Caller, type EventBus, requestRpc } from '@timeliner/platform';
import { CollaboratorRole, TimelinesRpc } from '@timeliner/proto';
import type { Logger } from 'pino';
import { isUuid } from '../ids.js';

/** What the timelines service says a caller may do with one of its timelines. */
export interface TimelineAccessAnswer {
  canView: boolean;
  canEdit: boolean;
  role: 'owner' | 'editor' | 'viewer' | null;
  ownerId: string;
}

/**
 * The port to the owner of timelines. Media belongs to a timeline, so every media access asks it,
 * on every request: a timeline made private, or a collaborator removed, takes effect at once.
 */
export interface TimelineAccess {
  /** Rejects with 503 when the timelines service cannot answer: access is never guessed. */
  check(timelineId: string, userId: string | undefined): Promise<TimelineAccessAnswer>;
}

export const TIMELINE_NOT_FOUND = 'Timeline not found';
export const MEDIA_NOT_FOUND = 'Video not found';
export const TIMELINES_UNAVAILABLE = 'Timelines service unavailable';
export const AUTHENTICATION_REQUIRED = 'Authentication required';
export const EDITORS_ONLY = 'Only the owner and editors can change the media of this timeline';
export const UPLOADERS_ONLY = 'Only the owner and editors can upload to this timeline';

const ROLES: Partial<Record<CollaboratorRole, TimelineAccessAnswer['role']>> = {
  [CollaboratorRole.OWNER]: 'owner',
  [CollaboratorRole.EDITOR]: 'editor',
  [CollaboratorRole.VIEWER]: 'viewer',
};

/** `TimelinesRpc.CheckAccess` over the bus, with a short deadline and no cache. */
export class BusTimelineAccess implements TimelineAccess {
  constructor(
    private readonly bus: EventBus,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly timeoutMs: number,
  ) {}

  async check(timelineId: string, userId: string | undefined): Promise<TimelineAccessAnswer> {
    try {
      const reply = await requestRpc(this.bus, TimelinesRpc.CheckAccess, { timelineId, userId: userId ?? '' }, { timeoutMs: this.timeoutMs });
      return { canView: reply.canView, canEdit: reply.canEdit, role: ROLES[reply.role] ?? null, ownerId: reply.ownerId };
    } catch (err) {
      this.logger.warn({ err, timelineId }, 'timeline access check failed');
      throw new ServiceUnavailableException(TIMELINES_UNAVAILABLE);
    }
  }
}

/**
 * The media policy, on top of the timelines service's answer:
 *
 * - Whoever may see the timeline may read its media (lists, originals, renditions, thumbnails):
 *   anonymous callers too, for published public and unlisted timelines.
 * - Someone who may not see it: an anonymous caller is told to sign in (401), a signed-in one
 *   that it does not exist (404). Both answers are the same whether the timeline (or the media)
 *   exists or not, so a private timeline's existence is never revealed; spec 000's client hides
 *   media answering 401 or 403.
 * - Changing media (upload, rename, reorder, delete) needs the owner or an editor: others who may
 *   see the timeline get 403.
 */
export function hidden(caller: Caller, message: string): Error {
  return caller.userId ? new NotFoundException(message) : new UnauthorizedException(AUTHENTICATION_REQUIRED);
}

export async function requireView(access: TimelineAccess, caller: Caller, timelineId: string, notFound = TIMELINE_NOT_FOUND): Promise<TimelineAccessAnswer> {
  if (!isUuid(timelineId)) throw hidden(caller, notFound);
  const answer = await access.check(timelineId.toLowerCase(), caller.userId);
  if (!answer.canView) throw hidden(caller, notFound);
  return answer;
}

export async function requireEdit(access: TimelineAccess, caller: Caller, timelineId: string, options: { notFound?: string; forbidden?: string } = {}): Promise<TimelineAccessAnswer> {
  if (!caller.userId) throw new UnauthorizedException(AUTHENTICATION_REQUIRED);
  const answer = await requireView(access, caller, timelineId, options.notFound);
  if (!answer.canEdit) throw new ForbiddenException(options.forbidden ?? EDITORS_ONLY);
  return answer;
}
