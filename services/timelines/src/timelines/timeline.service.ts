import { randomUUID } from 'node:crypto';
import { type Caller, decodeCursor, encodeCursor, type EventWriter, isUuid, type Page, type SignedInCaller, type Transactions } from '@timeliner/platform';
import { TimelinesEvents } from '@timeliner/proto';
import type { TimelineAccess } from '../access/timeline-access.service.js';
import type { CollaboratorRepository } from '../collaborators/collaborator.repository.js';
import { protoStatus, protoVisibility } from '../proto-enums.js';
import type { UserDirectory } from '../users/user-directory.js';
import { publishSnapshot } from './snapshot.js';
import type { Timeline } from './timeline.entity.js';
import type { TimelineChanges, TimelineRepository } from './timeline.repository.js';
import {
  type CreateTimelineDto,
  FEED_PAGE_SIZE,
  mapTimeline,
  MY_TIMELINES_PAGE_SIZE,
  type MyTimelinesPageQueryDto,
  type SignMediaUrl,
  type TimelineDto,
  type TimelinePageQueryDto,
  type UpdateTimelineDto,
} from './timeline.dto.js';

const emptyToNull = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value === '' ? null : value);

export class TimelineService {
  constructor(
    private readonly transactions: Transactions,
    private readonly timelines: TimelineRepository,
    private readonly collaborators: CollaboratorRepository,
    private readonly access: TimelineAccess,
    private readonly users: UserDirectory,
    private readonly events: EventWriter,
    private readonly signMediaUrl?: SignMediaUrl,
  ) {}

  /**
   * What the caller may see, in feed order: published public timelines, and for a signed-in
   * caller also every timeline they own or collaborate on (whatever its visibility or status).
   * Unlisted timelines of others never appear.
   */
  async list(caller: Caller, query: TimelinePageQueryDto): Promise<Page<TimelineDto>> {
    const limit = query.limit ?? FEED_PAGE_SIZE;
    const after = query.cursor ? decodeCursor(query.cursor, ['int', 'timestamp', 'uuid'] as const) : undefined;
    const rows = await this.timelines.feedPage(caller.userId, limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: await this.load(page.map((r) => r.id), caller.userId),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor([last.band, last.at, last.id]) } : {}),
    };
  }

  /** Timelines the caller owns or collaborates on, most recently updated first (picker, studio). */
  async mine(caller: SignedInCaller, query: MyTimelinesPageQueryDto): Promise<Page<TimelineDto>> {
    const limit = query.limit ?? MY_TIMELINES_PAGE_SIZE;
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid'] as const) : undefined;
    const rows = await this.timelines.memberPage(caller.userId, limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: await this.load(page.map((r) => r.id), caller.userId),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor([last.at, last.id]) } : {}),
    };
  }

  async create(caller: SignedInCaller, dto: CreateTimelineDto): Promise<TimelineDto> {
    const id = randomUUID();
    const visibility = dto.visibility ?? 'private';
    const description = emptyToNull(dto.description) ?? null;
    const timeline = await this.transactions.run(async (manager) => {
      const creatorName = await this.users.nameOf(caller.userId, manager);
      await this.timelines.insert(manager, { id, title: dto.title, description, creatorId: caller.userId, creatorName, visibility, isPublic: visibility === 'public', status: 'draft' });
      await this.collaborators.insert(manager, { id: randomUUID(), timelineId: id, userId: caller.userId, userName: creatorName, role: 'owner', invitationId: null });
      await this.timelines.refreshActivity(manager, id);
      const context = { actorUserId: caller.userId, requestId: caller.requestId };
      await this.events.add(manager, TimelinesEvents.TimelineCreated, {
        timelineId: id,
        creatorId: caller.userId,
        title: dto.title,
        description: description ?? '',
        visibility: protoVisibility(visibility),
        status: protoStatus('draft'),
      }, context);
      await publishSnapshot(manager, this.events, id, context);
      return this.timelines.get(id, manager);
    });
    return mapTimeline(timeline, 'owner');
  }

  /** One timeline on its page; one the moderators took out for its owner and (read-only) for staff, marked. */
  async get(caller: Caller, id: string): Promise<TimelineDto> {
    const { timeline, role, hiddenByModerators } = await this.access.authorize(caller, id, 'view', { inContext: true });
    const covers = await this.timelines.coversOf([timeline.id]);
    return mapTimeline(timeline, role, covers.get(timeline.id) ?? null, this.signMediaUrl, hiddenByModerators ?? false);
  }

  async update(caller: SignedInCaller, id: string, dto: UpdateTimelineDto): Promise<TimelineDto> {
    return this.transactions.run(async (manager) => {
      const { timeline, role } = await this.access.authorize(caller, id, 'manage', { manager, lock: true });
      const changes: TimelineChanges = {};
      if (dto.title !== undefined && dto.title !== timeline.title) changes.title = dto.title;
      const description = emptyToNull(dto.description);
      if (description !== undefined && description !== timeline.description) changes.description = description;
      if (dto.visibility !== undefined && dto.visibility !== timeline.visibility) {
        changes.visibility = dto.visibility;
        changes.isPublic = dto.visibility === 'public';
      }
      if (dto.status !== undefined && dto.status !== timeline.status) changes.status = dto.status;
      if (dto.sensitive !== undefined && dto.sensitive !== timeline.sensitive) changes.sensitive = dto.sensitive;
      if (Object.keys(changes).length === 0) return mapTimeline(timeline, role);

      await this.timelines.update(manager, id, changes);
      const context = { actorUserId: caller.userId, requestId: caller.requestId };
      if (changes.title !== undefined || changes.description !== undefined || changes.visibility !== undefined) {
        // Only what changed travels; a cleared description is an empty string.
        await this.events.add(manager, TimelinesEvents.TimelineUpdated, {
          timelineId: id,
          ...(changes.title !== undefined ? { title: changes.title } : {}),
          ...(changes.description !== undefined ? { description: changes.description ?? '' } : {}),
          ...(changes.visibility !== undefined ? { visibility: protoVisibility(changes.visibility) } : {}),
        }, context);
      }
      if (changes.status === 'published') await this.events.add(manager, TimelinesEvents.TimelinePublished, { timelineId: id }, context);
      if (changes.status === 'draft' && timeline.status === 'published') await this.events.add(manager, TimelinesEvents.TimelineUnpublished, { timelineId: id }, context);
      await publishSnapshot(manager, this.events, id, context);
      return mapTimeline(await this.timelines.get(id, manager), role);
    });
  }

  /**
   * Marks a timeline sensitive, or not, for the moderators (the moderation desk calls this, or
   * applies its decision event through it): no role check here, the caller has made the decision.
   * False when there is no such timeline.
   */
  async setSensitive(id: string, sensitive: boolean, context: { actorUserId?: string; requestId?: string } = {}): Promise<boolean> {
    if (!isUuid(id)) return false;
    return this.transactions.run(async (manager) => {
      const timeline = await this.timelines.find(id.toLowerCase(), { tx: manager, lock: true });
      if (!timeline) return false;
      if (timeline.sensitive === sensitive) return true;
      await this.timelines.update(manager, id, { sensitive });
      await publishSnapshot(manager, this.events, id, context);
      return true;
    });
  }

  /** Deletes the timeline with its collaborators, invitations and analytics (cascade). */
  async remove(caller: SignedInCaller, id: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const { timeline } = await this.access.authorize(caller, id, 'manage', { manager, lock: true });
      await this.timelines.delete(manager, id);
      await this.events.add(manager, TimelinesEvents.TimelineDeleted, { timelineId: id, creatorId: timeline.creatorId }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
  }

  /** The timelines with these ids, in this order, with the user's role on each. */
  private async load(ids: string[], userId: string | undefined): Promise<TimelineDto[]> {
    if (ids.length === 0) return [];
    const timelines = await this.timelines.findByIds(ids);
    const roles = userId ? await this.timelines.rolesOf(userId, ids) : new Map<string, never>();
    const byId = new Map<string, Timeline>(timelines.map((t) => [t.id, t]));
    const covers = await this.timelines.coversOf(timelines.map((t) => t.id));
    const removed = await this.timelines.moderatedAmong(ids);
    return ids.flatMap((id) => {
      const t = byId.get(id);
      return t ? [mapTimeline(t, roles.get(id) ?? null, covers.get(id) ?? null, this.signMediaUrl, removed.has(id))] : [];
    });
  }
}
