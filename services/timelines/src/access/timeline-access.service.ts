import { ForbiddenException, NotFoundException } from '@nestjs/common';
import { type Caller, isUuid } from '@timeliner/platform';
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
}

export interface AuthorizeOptions {
  /** Run in this transaction (required with `lock`). */
  manager?: EntityManager;
  /** Lock the timeline row (FOR UPDATE) for a change that depends on what was read. */
  lock?: boolean;
  /** The 404 message when the caller may not see the timeline (e.g. 'Invitation not found'). */
  notFoundMessage?: string;
}

export interface AccessCheck {
  canView: boolean;
  canEdit: boolean;
  role: CollaboratorRole | null;
  ownerId: string;
  /** Like ownerId, only for a caller who may see the timeline. */
  visibility?: Timeline['visibility'];
  title?: string;
}

/** What the policy decides on, for a loaded timeline. */
const factsOf = (found: TimelineWithRole): AccessFacts => ({
  visibility: found.timeline.visibility,
  status: found.timeline.status,
  role: found.role,
  hiddenByPrivateAccount: found.hiddenByPrivateAccount,
  hiddenByBlock: found.hiddenByBlock,
  hiddenByModerators: found.hiddenByModerators,
});

/** Applies the access policy (timeline-access.ts) to stored timelines and callers. */
export class TimelineAccess {
  constructor(private readonly timelines: TimelineRepository) {}

  /** The timeline and the user's role on it; null when there is no such timeline. */
  async load(id: string, userId: string | undefined, options: Pick<AuthorizeOptions, 'manager' | 'lock'> = {}): Promise<TimelineWithRole | null> {
    if (!isUuid(id)) return null;
    const timeline = await this.timelines.find(id, { tx: options.manager, lock: options.lock });
    if (!timeline) return null;
    const caller = userId && isUuid(userId) ? userId.toLowerCase() : undefined;
    const role = caller ? await this.timelines.roleOf(id, caller, options.manager) : null;
    const hiddenByModerators = await this.timelines.hiddenByModerators(id, options.manager);
    if (role !== null) return { timeline, role, hiddenByModerators };
    return {
      timeline,
      role,
      hiddenByModerators,
      hiddenByPrivateAccount: await this.timelines.hiddenByPrivateAccount(timeline.creatorId, caller, options.manager),
      hiddenByBlock: await this.timelines.hiddenByBlock(timeline.creatorId, caller, options.manager),
    };
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
  async check(timelineId: string, userId: string | undefined): Promise<AccessCheck> {
    const found = await this.load(timelineId, userId || undefined);
    if (!found) return { canView: false, canEdit: false, role: null, ownerId: '' };
    const visible = canView(factsOf(found));
    return {
      canView: visible,
      canEdit: visible && canEditContent(found.role),
      role: found.role,
      // The owner is named only to those who may see the timeline.
      ownerId: visible ? found.timeline.creatorId : '',
      ...(visible ? { visibility: found.timeline.visibility, title: found.timeline.title } : {}),
    };
  }
}
