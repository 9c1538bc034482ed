import { randomUUID } from 'node:crypto';
import type { Caller, SignedInCaller } from '@timeliner/platform';
import { TimelinesEvents } from '@timeliner/proto';
import { type DataSource, type EntityManager, In } from 'typeorm';
import type { TimelineAccess } from '../access/timeline-access.service.js';
import { Collaborator, type CollaboratorRole } from '../collaborators/collaborator.entity.js';
import type { EventWriter } from '@timeliner/platform';
import { protoStatus, protoVisibility } from '../proto-enums.js';
import type { UserDirectory } from '../users/user-directory.js';
import { refreshActivity } from './activity.js';
import { cursorTimestamp, decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, type Page } from './cursor.js';
import { coversOf, publishSnapshot } from './snapshot.js';
import { Timeline } from './timeline.entity.js';
import { type CreateTimelineDto, type ListQueryDto, mapTimeline, type SignMediaUrl, type TimelineDto, type UpdateTimelineDto } from './timeline.dto.js';

// Feed order (see activity.ts), for the merged rows and for each timelines scan.
const FEED_ORDER = 'score_band DESC, last_activity_at DESC, id DESC';
const FEED_ORDER_T = 't.score_band DESC, t.last_activity_at DESC, t.id DESC';

/** The picker and the studio list everything the caller owns or works on; it rarely exceeds a page. */
const MY_TIMELINES_PAGE_SIZE = 100;

const emptyToNull = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value === '' ? null : value);

export class TimelineService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: TimelineAccess,
    private readonly users: UserDirectory,
    private readonly events: EventWriter,
    private readonly signMediaUrl?: SignMediaUrl,
  ) {}

  /**
   * What the caller may see, in feed order: published public timelines, and for a signed-in
   * caller also every timeline they own or collaborate on (whatever its visibility or status).
   * Unlisted timelines of others never appear. Two index scans merged, so the list costs the
   * same with 100k timelines as with 10.
   */
  async list(caller: Caller, query: ListQueryDto): Promise<Page<TimelineDto>> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const params: unknown[] = [limit + 1];
    let after = '';
    if (query.cursor) {
      const [band, at, id] = decodeCursor(query.cursor, ['int', 'timestamp', 'uuid'] as const);
      params.push(band, at, id);
      after = 'AND (t.score_band, t.last_activity_at, t.id) < ($2::int, $3::timestamptz, $4::uuid)';
    }
    let mine = '';
    if (caller.userId) {
      params.push(caller.userId);
      mine = `UNION
        (SELECT t.id, t.score_band, t.last_activity_at FROM collaborators c JOIN timelines t ON t.id = c.timeline_id
          WHERE c.user_id = $${params.length} AND c.status = 'active' ${after}
          ORDER BY ${FEED_ORDER_T} LIMIT $1)`;
    }
    const rows: Array<{ id: string; score_band: number; la: string }> = await this.dataSource.query(
      `SELECT id, score_band, ${cursorTimestamp('last_activity_at')} AS la FROM (
         (SELECT t.id, t.score_band, t.last_activity_at FROM timelines t
           WHERE t.visibility = 'public' AND t.status = 'published' ${after}
           ORDER BY ${FEED_ORDER_T} LIMIT $1)
         ${mine}
       ) AS visible ORDER BY ${FEED_ORDER} LIMIT $1`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: await this.load(page.map((r) => r.id), caller.userId),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor([last.score_band, last.la, last.id]) } : {}),
    };
  }

  /** Timelines the caller owns or collaborates on, most recently updated first (picker, studio). */
  async mine(caller: SignedInCaller, query: ListQueryDto): Promise<Page<TimelineDto>> {
    const limit = query.limit ?? MY_TIMELINES_PAGE_SIZE;
    const params: unknown[] = [caller.userId, limit + 1];
    let after = '';
    if (query.cursor) {
      const [at, id] = decodeCursor(query.cursor, ['timestamp', 'uuid'] as const);
      params.push(at, id);
      after = 'AND (t.updated_at, t.id) < ($3::timestamptz, $4::uuid)';
    }
    const rows: Array<{ id: string; ua: string }> = await this.dataSource.query(
      `SELECT t.id, ${cursorTimestamp('t.updated_at')} AS ua FROM collaborators c JOIN timelines t ON t.id = c.timeline_id
        WHERE c.user_id = $1 AND c.status = 'active' ${after}
        ORDER BY t.updated_at DESC, t.id DESC LIMIT $2`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: await this.load(page.map((r) => r.id), caller.userId),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor([last.ua, last.id]) } : {}),
    };
  }

  async create(caller: SignedInCaller, dto: CreateTimelineDto): Promise<TimelineDto> {
    const id = randomUUID();
    const visibility = dto.visibility ?? 'private';
    const description = emptyToNull(dto.description) ?? null;
    const timeline = await this.dataSource.transaction(async (manager) => {
      const creatorName = await this.users.nameOf(caller.userId, manager);
      await manager.insert(Timeline, { id, title: dto.title, description, creatorId: caller.userId, creatorName, visibility, isPublic: visibility === 'public', status: 'draft' });
      await manager.insert(Collaborator, { id: randomUUID(), timelineId: id, userId: caller.userId, userName: creatorName, role: 'owner', status: 'active', invitationId: null });
      await refreshActivity(manager, id);
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
      return manager.findOneByOrFail(Timeline, { id });
    });
    this.events.committed();
    return mapTimeline(timeline, 'owner');
  }

  async get(caller: Caller, id: string): Promise<TimelineDto> {
    const { timeline, role } = await this.access.authorize(caller, id, 'view');
    const covers = await coversOf(this.dataSource.manager, [timeline.id]);
    return mapTimeline(timeline, role, covers.get(timeline.id) ?? null, this.signMediaUrl);
  }

  async update(caller: SignedInCaller, id: string, dto: UpdateTimelineDto): Promise<TimelineDto> {
    const result = await this.dataSource.transaction(async (manager) => {
      const { timeline, role } = await this.access.authorize(caller, id, 'manage', { manager, lock: true });
      const changes: Partial<Timeline> = {};
      if (dto.title !== undefined && dto.title !== timeline.title) changes.title = dto.title;
      const description = emptyToNull(dto.description);
      if (description !== undefined && description !== timeline.description) changes.description = description;
      if (dto.visibility !== undefined && dto.visibility !== timeline.visibility) {
        changes.visibility = dto.visibility;
        changes.isPublic = dto.visibility === 'public';
      }
      if (dto.status !== undefined && dto.status !== timeline.status) changes.status = dto.status;
      if (Object.keys(changes).length === 0) return mapTimeline(timeline, role);

      await manager.update(Timeline, { id }, changes);
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
      return mapTimeline(await manager.findOneByOrFail(Timeline, { id }), role);
    });
    this.events.committed();
    return result;
  }

  /** Deletes the timeline with its collaborators, invitations and analytics (cascade). */
  async remove(caller: SignedInCaller, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const { timeline } = await this.access.authorize(caller, id, 'manage', { manager, lock: true });
      await manager.delete(Timeline, { id });
      await this.events.add(manager, TimelinesEvents.TimelineDeleted, { timelineId: id, creatorId: timeline.creatorId }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
    this.events.committed();
  }

  /** The timelines with these ids, in this order, with the user's role on each. */
  private async load(ids: string[], userId: string | undefined, manager: EntityManager = this.dataSource.manager): Promise<TimelineDto[]> {
    if (ids.length === 0) return [];
    const timelines = await manager.findBy(Timeline, { id: In(ids) });
    const roles = new Map<string, CollaboratorRole>();
    if (userId) {
      const rows = await manager.find(Collaborator, { where: { userId, timelineId: In(ids), status: 'active' }, select: { timelineId: true, role: true } });
      for (const row of rows) roles.set(row.timelineId, row.role);
    }
    const byId = new Map(timelines.map((t) => [t.id, t]));
    const covers = await coversOf(manager, timelines.map((t) => t.id));
    return ids.flatMap((id) => {
      const t = byId.get(id);
      return t ? [mapTimeline(t, roles.get(id) ?? null, covers.get(id) ?? null, this.signMediaUrl)] : [];
    });
  }
}
