import { ServiceUnavailableException } from '@nestjs/common';
import { CollaboratorRole, TimelinesRpc, Visibility } from '@timeliner/proto';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/event-bus.port.js';
import { requestRpc } from '../bus/rpc.js';
import { isUuid } from '../payload/payload-checks.js';

/** What the timelines service says a caller may do with one of its timelines. */
export interface TimelineAccessAnswer {
  canView: boolean;
  canEdit: boolean;
  role: 'owner' | 'editor' | 'viewer' | null;
  ownerId: string;
  /** Known when the caller may see it (and the timelines service is new enough to say). */
  visibility?: 'private' | 'unlisted' | 'public';
  title?: string;
  /** The moderators took it out (hidden, or its creator suspended): told to its owner, and to staff reading it in context. */
  removedByModerators?: boolean;
}

/** How a caller reads a timeline through `check`. */
export interface TimelineAccessOptions {
  /**
   * The caller reads the timeline's content in context (media lists and files), not acting on it:
   * a timeline the moderators took out is then seen by staff too, read-only (canEdit false). Never
   * set by a path that writes (likes, comments, uploads).
   */
  inContext?: boolean;
}

const VISIBILITIES: Partial<Record<Visibility, NonNullable<TimelineAccessAnswer['visibility']>>> = {
  [Visibility.PRIVATE]: 'private',
  [Visibility.UNLISTED]: 'unlisted',
  [Visibility.PUBLIC]: 'public',
};

/**
 * The port to the owner of timelines, for the services that keep things belonging to a timeline
 * (media, comments, ...). They ask it on every request, so a timeline made private, or a
 * collaborator removed, takes effect at once.
 */
export interface TimelineAccess {
  /** Rejects with 503 when the timelines service cannot answer: access is never guessed. */
  check(timelineId: string, userId: string | undefined, options?: TimelineAccessOptions): Promise<TimelineAccessAnswer>;
}

export const TIMELINE_NOT_FOUND = 'Timeline not found';
export const TIMELINES_UNAVAILABLE = 'Timelines service unavailable';
export const AUTHENTICATION_REQUIRED = 'Authentication required';

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

  async check(timelineId: string, userId: string | undefined, options: TimelineAccessOptions = {}): Promise<TimelineAccessAnswer> {
    try {
      const reply = await requestRpc(this.bus, TimelinesRpc.CheckAccess, { timelineId, userId: userId ?? '', inContext: options.inContext ?? false }, { timeoutMs: this.timeoutMs });
      const visibility = VISIBILITIES[reply.visibility];
      return {
        canView: reply.canView,
        canEdit: reply.canEdit,
        role: ROLES[reply.role] ?? null,
        ownerId: reply.ownerId,
        ...(visibility ? { visibility } : {}),
        ...(reply.title !== undefined ? { title: reply.title } : {}),
        ...(reply.removedByModerators ? { removedByModerators: true } : {}),
      };
    } catch (err) {
      this.logger.warn({ err, timelineId }, 'timeline access check failed');
      throw new ServiceUnavailableException(TIMELINES_UNAVAILABLE);
    }
  }
}

/**
 * The timelines service's answer when the caller may see the timeline; otherwise `hidden()` is
 * thrown, the same for a timeline that is private as for one that does not exist (or a malformed
 * id), so a private timeline's existence is never revealed.
 */
export async function requireVisible(access: TimelineAccess, timelineId: string, userId: string | undefined, hidden: () => Error, options?: TimelineAccessOptions): Promise<TimelineAccessAnswer> {
  if (!isUuid(timelineId)) throw hidden();
  const answer = await access.check(timelineId.toLowerCase(), userId, options);
  if (!answer.canView) throw hidden();
  return answer;
}
