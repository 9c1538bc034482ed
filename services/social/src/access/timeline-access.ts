import { NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { type EventBus, requestRpc } from '@timeliner/platform';
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
 * The port to the owner of timelines. Everything this service keeps about a timeline (comments,
 * later likes and bookmarks) is shown or accepted only after asking it, on every request: a
 * timeline made private, or a collaborator removed, takes effect at once.
 */
export interface TimelineAccess {
  /** Rejects with 503 when the timelines service cannot answer: access is never guessed. */
  check(timelineId: string, userId: string | undefined): Promise<TimelineAccessAnswer>;
}

export const TIMELINE_NOT_FOUND = 'Timeline not found';
export const TIMELINES_UNAVAILABLE = 'Timelines service unavailable';

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
 * The timeline if the caller may see it; 404 otherwise, whether it is private or does not exist,
 * so a private timeline's existence is never revealed.
 */
export async function requireVisibleTimeline(access: TimelineAccess, timelineId: string, userId: string | undefined): Promise<TimelineAccessAnswer> {
  if (!isUuid(timelineId)) throw new NotFoundException(TIMELINE_NOT_FOUND);
  const answer = await access.check(timelineId.toLowerCase(), userId);
  if (!answer.canView) throw new NotFoundException(TIMELINE_NOT_FOUND);
  return answer;
}
