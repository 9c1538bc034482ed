import { ForbiddenException, NotFoundException } from '@nestjs/common';
import { type Caller, isUuid, type StaffRoles } from '@timeliner/platform';
import type { EntityManager } from 'typeorm';
import type { CollaboratorRole } from '../collaborators/collaborator.entity.js';
import type { Timeline } from '../timelines/timeline.entity.js';
import type { TimelineRepository } from '../timelines/timeline.repository.js';
import { type AccessFacts, canEditContent, canView, decide, FORBIDDEN_MESSAGES, type TimelineAction } from './timeline-access.js';

export const TIMELINE_NOT_FOUND = 'Timeline not found';

export interface TimelineWithRole {
  timeline: Timeline;
  role: CollaboratorRole | null;
  /** The creator's account is private and the caller (not on the team) is not an approved follower. */
  hiddenByPrivateAccount?: boolean;
  hiddenByBlock?: boolean;
  /** The moderators hid the timeline or suspended its creator: only its owner sees it. */
  hiddenByModerators?: boolean;
  /** Taken out by the moderators, and the caller is staff reading it in context: they view it, read-only. */
  staffInContext?: boolean;
}

export interface AuthorizeOptions {
  /** Run in this transaction (required with `lock`). */
  manager?: EntityManager;
  /** Lock the timeline row (FOR UPDATE) for a change that depends on what was read. */
  lock?: boolean;
  /** The 404 message when the caller may not see the timeline (e.g. 'Invitation not found'). */
  notFoundMessage?: string;
  /**
   * A read of the timeline in context (its page): one the moderators took out is shown to staff as
   * well, marked. Only 'view' reads pass it; the social service is asked only then.
   */
  inContext?: boolean;
}

export interface AccessCheck {
  canView: boolean;
  canEdit: boolean;
  role: CollaboratorRole | null;
  ownerId: string;
  /** Like ownerId, only for a caller who may see the timeline. */
  visibility?: Timeline['visibility'];
  title?: string;
  /** Like visibility: the moderators took it out (told to its owner and to staff reading it in context). */
  removedByModerators?: boolean;
}

/** What the policy decides on, for a loaded timeline. */
const factsOf = (found: TimelineWithRole): AccessFacts => ({
  visibility: found.timeline.visibility,
  status: found.timeline.status,
  role: found.role,
  hiddenByPrivateAccount: found.hiddenByPrivateAccount,
  hiddenByBlock: found.hiddenByBlock,
  hiddenByModerators: found.hiddenByModerators,
  staffInContext: found.staffInContext,
});

/** Applies the access policy (timeline-access.ts) to stored timelines and callers. */
export class TimelineAccess {
  /** `staff`: who is staff (the social service), asked only for a taken-out timeline read in context; without it nobody is. */
  constructor(
    private readonly timelines: TimelineRepository,
    private readonly staff?: StaffRoles,
  ) {}

  /** The timeline and the user's role on it; null when there is no such timeline. */
  async load(id: string, userId: string | undefined, options: Pick<AuthorizeOptions, 'manager' | 'lock' | 'inContext'> = {}): Promise<TimelineWithRole | null> {
    if (!isUuid(id)) return null;
    const timeline = await this.timelines.find(id, { tx: options.manager, lock: options.lock });
    if (!timeline) return null;
    const caller = userId && isUuid(userId) ? userId.toLowerCase() : undefined;
    const role = caller ? await this.timelines.roleOf(id, caller, options.manager) : null;
    const hiddenByModerators = await this.timelines.hiddenByModerators(id, options.manager);
    const staffInContext = options.inContext && hiddenByModerators && caller && role !== 'owner' ? await this.staffSees(timeline, caller) : false;
    if (role !== null) return { timeline, role, hiddenByModerators, staffInContext };
    return {
      timeline,
      role,
      hiddenByModerators,
      staffInContext,
      hiddenByPrivateAccount: await this.timelines.hiddenByPrivateAccount(timeline.creatorId, caller, options.manager),
      hiddenByBlock: await this.timelines.hiddenByBlock(timeline.creatorId, caller, options.manager),
    };
  }

  /**
   * The rare path of a taken-out timeline opened by a signed-in caller who is not its owner: staff
   * see it when it was out for people to see (published, public or unlisted: what can have been
   * reported), whatever blocks or a private account say; a draft or a private timeline stays its
   * team's. The social service not answering in time means not staff (404 as for everyone).
   */
  private async staffSees(timeline: Timeline, caller: string): Promise<boolean> {
    if (!this.staff || timeline.status !== 'published' || timeline.visibility === 'private') return false;
    return this.staff.isStaff(caller);
  }

  /** Loads the timeline and checks the caller may do `action`: 404 when they may not see it, 403 when their role falls short. */
  async authorize(caller: Caller, id: string, action: TimelineAction, options: AuthorizeOptions = {}): Promise<TimelineWithRole> {
    const found = await this.load(id, caller.userId, options);
    const notFound = () => new NotFoundException(options.notFoundMessage ?? TIMELINE_NOT_FOUND);
    if (!found) throw notFound();
    const decision = decide(factsOf(found), action);
    if (decision === 'hidden') throw notFound();
    if (decision === 'forbidden') throw new ForbiddenException(FORBIDDEN_MESSAGES[action as Exclude<TimelineAction, 'view'>]);
    return found;
  }

  /** For `TimelinesRpc.CheckAccess`: a missing timeline looks like one the user may not see. */
  async check(timelineId: string, userId: string | undefined, options: Pick<AuthorizeOptions, 'inContext'> = {}): Promise<AccessCheck> {
    const found = await this.load(timelineId, userId || undefined, options);
    if (!found) return { canView: false, canEdit: false, role: null, ownerId: '' };
    const visible = canView(factsOf(found));
    // Staff reading a taken-out timeline in context change nothing in it.
    const readOnly = Boolean(found.hiddenByModerators) && found.role !== 'owner';
    return {
      canView: visible,
      canEdit: visible && !readOnly && canEditContent(found.role),
      role: found.role,
      // The owner is named only to those who may see the timeline.
      ownerId: visible ? found.timeline.creatorId : '',
      ...(visible ? { visibility: found.timeline.visibility, title: found.timeline.title, removedByModerators: Boolean(found.hiddenByModerators) } : {}),
    };
  }
}
