import { ForbiddenException, NotFoundException } from '@nestjs/common';
import type { Caller } from '@timeliner/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { Collaborator, type CollaboratorRole } from '../collaborators/collaborator.entity.js';
import { isUuid } from '../ids.js';
import { Timeline } from '../timelines/timeline.entity.js';
import { canEditContent, canView, decide, FORBIDDEN_MESSAGES, type TimelineAction } from './timeline-access.js';

export const TIMELINE_NOT_FOUND = 'Timeline not found';

export interface TimelineWithRole {
  timeline: Timeline;
  role: CollaboratorRole | null;
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
}

/** Applies the access policy (timeline-access.ts) to stored timelines and callers. */
export class TimelineAccess {
  constructor(private readonly dataSource: DataSource) {}

  /** The timeline and the user's role on it; null when there is no such timeline. */
  async load(id: string, userId: string | undefined, options: Pick<AuthorizeOptions, 'manager' | 'lock'> = {}): Promise<TimelineWithRole | null> {
    if (!isUuid(id)) return null;
    const manager = options.manager ?? this.dataSource.manager;
    const timeline = await manager.findOne(Timeline, { where: { id }, ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
    if (!timeline) return null;
    return { timeline, role: userId ? await this.roleOf(manager, id, userId) : null };
  }

  /** Loads the timeline and checks the caller may do `action`: 404 when they may not see it, 403 when their role falls short. */
  async authorize(caller: Caller, id: string, action: TimelineAction, options: AuthorizeOptions = {}): Promise<TimelineWithRole> {
    const found = await this.load(id, caller.userId, options);
    const notFound = () => new NotFoundException(options.notFoundMessage ?? TIMELINE_NOT_FOUND);
    if (!found) throw notFound();
    const decision = decide({ visibility: found.timeline.visibility, status: found.timeline.status, role: found.role }, action);
    if (decision === 'hidden') throw notFound();
    if (decision === 'forbidden') throw new ForbiddenException(FORBIDDEN_MESSAGES[action as Exclude<TimelineAction, 'view'>]);
    return found;
  }

  /** For `TimelinesRpc.CheckAccess`: a missing timeline looks like one the user may not see. */
  async check(timelineId: string, userId: string | undefined): Promise<AccessCheck> {
    const found = await this.load(timelineId, userId || undefined);
    if (!found) return { canView: false, canEdit: false, role: null, ownerId: '' };
    const facts = { visibility: found.timeline.visibility, status: found.timeline.status, role: found.role };
    const visible = canView(facts);
    return {
      canView: visible,
      canEdit: visible && canEditContent(found.role),
      role: found.role,
      // The owner is named only to those who may see the timeline.
      ownerId: visible ? found.timeline.creatorId : '',
    };
  }

  async roleOf(manager: EntityManager, timelineId: string, userId: string): Promise<CollaboratorRole | null> {
    if (!isUuid(userId)) return null;
    const row = await manager.findOne(Collaborator, { where: { timelineId, userId, status: 'active' }, select: { role: true } });
    return row?.role ?? null;
  }
}
