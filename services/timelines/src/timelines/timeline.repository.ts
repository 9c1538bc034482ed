import { type CursorKey, cursorTimestamp } from '@timeliner/platform';
import { type DataSource, type EntityManager, In } from 'typeorm';
import { Collaborator, type CollaboratorRole } from '../collaborators/collaborator.entity.js';
import { hiddenByBlock } from '../blocks/blocks.js';
import { hiddenByModeratorsSql } from '../moderation/hidden-by-moderators.js';
import { hiddenByPrivateAccount } from '../private-accounts/private-accounts.js';
import { refreshActivity } from './activity.js';
import { type CoverFacts, coverFactsOf, coversOf, SNAPSHOT_COLUMNS, type SnapshotRow } from './snapshot.js';
import { Timeline } from './timeline.entity.js';

// Feed order (see activity.ts), for the merged rows and for each timelines scan.
const FEED_ORDER = 'score_band DESC, last_activity_at DESC, id DESC';
const FEED_ORDER_T = 't.score_band DESC, t.last_activity_at DESC, t.id DESC';

/** A row of the feed: its keys, for the next page's cursor. */
export interface FeedRow {
  id: string;
  band: number;
  /** last_activity_at as the cursor holds it. */
  at: string;
}

/** A row of someone's own timelines: its keys, for the next page's cursor. */
export interface MemberRow {
  id: string;
  /** updated_at as the cursor holds it. */
  at: string;
}

export type NewTimeline = Pick<Timeline, 'id' | 'title' | 'description' | 'creatorId' | 'creatorName' | 'visibility' | 'isPublic' | 'status'>;
export type TimelineChanges = Partial<Pick<Timeline, 'title' | 'description' | 'visibility' | 'isPublic' | 'status' | 'sensitive'>>;

export interface FindOptions {
  /** Read in this transaction. */
  tx?: EntityManager | undefined;
  /** Lock the row (FOR UPDATE) until the transaction ends; needs `tx`. */
  lock?: boolean | undefined;
}

/** Timelines as stored: the feed's and the studio's pages, the rows and the caller's role on them. */
export class TimelineRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Published public timelines, plus for a signed-in person every timeline they own or work on,
   * in feed order after `after` (a cursor's band, last activity and id): two index scans merged, so a page costs the same with
   * 100k timelines as with 10. `take` rows at most.
   */
  async feedPage(userId: string | undefined, take: number, after?: CursorKey): Promise<FeedRow[]> {
    const params: unknown[] = [take];
    let afterSql = '';
    if (after) {
      params.push(...after);
      afterSql = 'AND (t.score_band, t.last_activity_at, t.id) < ($2::int, $3::timestamptz, $4::uuid)';
    }
    params.push(userId ?? null);
    const caller = `$${params.length}`;
    let mine = '';
    if (userId) {
      params.push(userId);
      mine = `UNION
        (SELECT t.id, t.score_band, t.last_activity_at FROM collaborators c JOIN timelines t ON t.id = c.timeline_id
          WHERE c.user_id = $${params.length} AND c.status = 'active' ${afterSql}
            AND (c.role = 'owner' OR NOT ${hiddenByModeratorsSql('t')})
          ORDER BY ${FEED_ORDER_T} LIMIT $1)`;
    }
    return (await this.dataSource.query(
      `SELECT id, score_band AS band, ${cursorTimestamp('last_activity_at')} AS at FROM (
         (SELECT t.id, t.score_band, t.last_activity_at FROM timelines t
           WHERE t.visibility = 'public' AND t.status = 'published' ${afterSql}
             AND NOT ${hiddenByPrivateAccount('t.creator_id', caller)}
             AND NOT ${hiddenByBlock('t.creator_id', caller)}
             AND NOT ${hiddenByModeratorsSql('t')}
           ORDER BY ${FEED_ORDER_T} LIMIT $1)
         ${mine}
       ) AS visible ORDER BY ${FEED_ORDER} LIMIT $1`,
      params,
    )) as FeedRow[];
  }

  /** Timelines the person owns or works on, most recently updated first, after `after` (a cursor's update time and id). */
  async memberPage(userId: string, take: number, after?: CursorKey): Promise<MemberRow[]> {
    const params: unknown[] = [userId, take];
    let afterSql = '';
    if (after) {
      params.push(...after);
      afterSql = 'AND (t.updated_at, t.id) < ($3::timestamptz, $4::uuid)';
    }
    return (await this.dataSource.query(
      `SELECT t.id, ${cursorTimestamp('t.updated_at')} AS at FROM collaborators c JOIN timelines t ON t.id = c.timeline_id
        WHERE c.user_id = $1 AND c.status = 'active' ${afterSql}
          AND (c.role = 'owner' OR NOT ${hiddenByModeratorsSql('t')})
        ORDER BY t.updated_at DESC, t.id DESC LIMIT $2`,
      params,
    )) as MemberRow[];
  }

  /** The timelines with these ids (any order; missing ones absent). */
  findByIds(ids: readonly string[]): Promise<Timeline[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.dataSource.manager.findBy(Timeline, { id: In([...ids]) });
  }

  /** One timeline; null when there is none. */
  find(id: string, options: FindOptions = {}): Promise<Timeline | null> {
    const manager = options.tx ?? this.dataSource.manager;
    return manager.findOne(Timeline, { where: { id }, ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  /** One timeline that must exist (read after a change, or under a lock that keeps it). */
  get(id: string, tx: EntityManager = this.dataSource.manager): Promise<Timeline> {
    return tx.findOneByOrFail(Timeline, { id });
  }

  /** Whether the moderators hid the timeline or suspended its creator (moderation/hidden-by-moderators.ts). */
  async hiddenByModerators(id: string, tx: EntityManager = this.dataSource.manager): Promise<boolean> {
    const [row] = (await tx.query(`SELECT ${hiddenByModeratorsSql('t')} AS hidden FROM timelines t WHERE t.id = $1`, [id])) as Array<{ hidden: boolean }>;
    return row?.hidden ?? false;
  }

  /** Those of these timelines the moderators hid or whose creator they suspended. */
  async moderatedAmong(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = (await this.dataSource.query(`SELECT t.id FROM timelines t WHERE t.id = ANY($1::uuid[]) AND ${hiddenByModeratorsSql('t')}`, [ids])) as Array<{ id: string }>;
    return new Set(rows.map((row) => row.id));
  }

  /** Whether the creator and the caller are a blocked pair, either way (blocks/blocks.ts). */
  async hiddenByBlock(creatorId: string, callerId: string | undefined, tx: EntityManager = this.dataSource.manager): Promise<boolean> {
    if (!callerId) return false;
    const [row] = (await tx.query(`SELECT ${hiddenByBlock('$1::uuid', '$2')} AS hidden`, [creatorId, callerId])) as Array<{ hidden: boolean }>;
    return row?.hidden ?? false;
  }

  /** Whether the creator's account is private and the caller is not one of its approved followers (private-accounts.ts). */
  async hiddenByPrivateAccount(creatorId: string, callerId: string | undefined, tx: EntityManager = this.dataSource.manager): Promise<boolean> {
    const [row] = (await tx.query(`SELECT ${hiddenByPrivateAccount('$1::uuid', '$2')} AS hidden`, [creatorId, callerId ?? null])) as Array<{ hidden: boolean }>;
    return row?.hidden ?? false;
  }

  /** The person's role on the timeline; null for anyone not on its team. */
  async roleOf(timelineId: string, userId: string, tx: EntityManager = this.dataSource.manager): Promise<CollaboratorRole | null> {
    const row = await tx.findOne(Collaborator, { where: { timelineId, userId, status: 'active' }, select: { role: true } });
    return row?.role ?? null;
  }

  /** The person's role on each of these timelines they are on the team of. */
  async rolesOf(userId: string, timelineIds: readonly string[]): Promise<Map<string, CollaboratorRole>> {
    if (timelineIds.length === 0) return new Map();
    const rows = await this.dataSource.manager.find(Collaborator, { where: { userId, timelineId: In([...timelineIds]), status: 'active' }, select: { timelineId: true, role: true } });
    return new Map(rows.map((row) => [row.timelineId, row.role]));
  }

  /** The cover (first processed video, see snapshot.ts) of each of these timelines that has one. */
  coversOf(timelineIds: readonly string[]): Promise<Map<string, string>> {
    return coversOf(this.dataSource.manager, timelineIds);
  }

  /** The cover of each of these timelines that has one, with its description (what a snapshot carries). */
  coverFactsOf(timelineIds: readonly string[]): Promise<Map<string, CoverFacts>> {
    return coverFactsOf(this.dataSource.manager, timelineIds);
  }

  async insert(tx: EntityManager, timeline: NewTimeline): Promise<void> {
    await tx.insert(Timeline, timeline);
  }

  async update(tx: EntityManager, id: string, changes: TimelineChanges): Promise<void> {
    await tx.update(Timeline, { id }, changes);
  }

  /** Deletes the timeline with its collaborators, invitations and analytics (cascade). */
  async delete(tx: EntityManager, id: string): Promise<void> {
    await tx.delete(Timeline, { id });
  }

  /** Timelines as their last snapshot showed them (SNAPSHOT_COLUMNS), these ones, in id order; those never snapshotted are left out. */
  snapshotsOf(ids: readonly string[]): Promise<SnapshotRow[]> {
    return this.dataSource.query(`SELECT ${SNAPSHOT_COLUMNS} FROM timelines WHERE id = ANY($1::uuid[]) AND revision > 0 ORDER BY id`, [ids]);
  }

  /** The same, a page in id order after `afterId` (from the first without it). */
  snapshotPage(afterId: string | undefined, limit: number): Promise<SnapshotRow[]> {
    return afterId
      ? this.dataSource.query(`SELECT ${SNAPSHOT_COLUMNS} FROM timelines WHERE id > $1 AND revision > 0 ORDER BY id LIMIT $2`, [afterId, limit])
      : this.dataSource.query(`SELECT ${SNAPSHOT_COLUMNS} FROM timelines WHERE revision > 0 ORDER BY id LIMIT $1`, [limit]);
  }

  /**
   * The teams of these timelines (their collaborators, the owner apart) with their version, read
   * in one statement so a list and its version agree.
   */
  async teamsOf(ids: readonly string[]): Promise<Map<string, { userIds: string[]; membersVersion: bigint }>> {
    const rows = (await this.dataSource.query(
      `SELECT t.id, t.members_version::text AS version,
              coalesce(array_agg(c.user_id ORDER BY c.user_id) FILTER (WHERE c.user_id IS NOT NULL), '{}') AS "userIds"
         FROM timelines t
         LEFT JOIN collaborators c ON c.timeline_id = t.id AND c.status = 'active' AND c.role <> 'owner' AND c.user_id <> t.creator_id
        WHERE t.id = ANY($1::uuid[])
        GROUP BY t.id`,
      [ids],
    )) as Array<{ id: string; version: string; userIds: string[] }>;
    return new Map(rows.map((row) => [row.id, { userIds: row.userIds, membersVersion: BigInt(row.version) }]));
  }

  /** How many timelines have had a snapshot. */
  async countSnapshotted(): Promise<bigint> {
    const [row] = (await this.dataSource.query('SELECT count(*)::text AS n FROM timelines WHERE revision > 0')) as Array<{ n: string }>;
    return BigInt(row!.n);
  }

  /** Last activity, score and band again from the stored inputs, after one of them changed. */
  refreshActivity(tx: EntityManager, id: string): Promise<void> {
    return refreshActivity(tx, id);
  }
}
