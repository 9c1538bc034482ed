import { type CursorKey, cursorTimestamp } from '@timeliner/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { ReportableType } from '../reports/content-report.entity.js';
import type { StaffRole } from './moderation.entity.js';

/** A reported item as the desk shows it: what it says, who wrote it, where it is. */
export interface ItemRow {
  contentType: ReportableType;
  contentId: string;
  authorId: string;
  authorUsername: string | null;
  authorDisplayName: string | null;
  text: string;
  /** The post a post comment is on. */
  postId: string | null;
  /** The timeline a timeline or video comment is on, or the timeline itself. */
  timelineId: string | null;
  hidden: boolean;
  sensitive: boolean;
}

/** Pending reports of one item. */
export interface ReportGroupRow {
  contentType: ReportableType;
  contentId: string;
  reporters: number;
  reasons: string[];
  notes: string[];
  firstReportedAt: Date;
  lastReportedAt: Date;
}

export interface ActionRow {
  id: string;
  moderatorId: string | null;
  moderatorUsername: string | null;
  action: string;
  contentType: string | null;
  contentId: string | null;
  subjectUserId: string | null;
  subjectUsername: string | null;
  reason: string;
  until: Date | null;
  createdAt: Date;
  key: CursorKey;
}

export interface AppealRow {
  id: string;
  actionId: string;
  authorId: string;
  authorUsername: string | null;
  contentType: string | null;
  contentId: string | null;
  text: string;
  status: string;
  createdAt: Date;
  action: string;
  actionReason: string;
}

export interface SuspensionRow {
  userId: string;
  until: Date | null;
  reason: string;
}

/** What the desk did about a person's content or account, as they see it. */
export interface NoticeRow {
  actionId: string;
  action: string;
  contentType: string | null;
  contentId: string | null;
  reason: string;
  until: Date | null;
  createdAt: Date;
  appealStatus: string | null;
}

const ITEM_SQL: Record<ReportableType, string> = {
  post: `SELECT 'post' AS "contentType", p.id AS "contentId", p.user_id AS "authorId", p.content AS text, p.id AS "postId", NULL::uuid AS "timelineId" FROM posts p WHERE p.id = $1`,
  post_comment: `SELECT 'post_comment' AS "contentType", c.id AS "contentId", c.user_id AS "authorId", c.content AS text, c.post_id AS "postId", NULL::uuid AS "timelineId" FROM post_comments c WHERE c.id = $1`,
  timeline_comment: `SELECT 'timeline_comment' AS "contentType", c.id AS "contentId", c.user_id AS "authorId", c.content AS text, NULL::uuid AS "postId", c.timeline_id AS "timelineId" FROM timeline_comments c WHERE c.id = $1`,
  video_comment: `SELECT 'video_comment' AS "contentType", c.id AS "contentId", c.user_id AS "authorId", c.content AS text, NULL::uuid AS "postId", c.timeline_id AS "timelineId" FROM video_comments c WHERE c.id = $1`,
  video: `SELECT 'video' AS "contentType", v.id AS "contentId", t.creator_id AS "authorId", 'A video or image in ' || t.title AS text, NULL::uuid AS "postId", v.timeline_id AS "timelineId" FROM videos v JOIN feed_timelines t ON t.id = v.timeline_id WHERE v.id = $1 AND NOT v.deleted`,
  timeline: `SELECT 'timeline' AS "contentType", t.id AS "contentId", t.creator_id AS "authorId", t.title || CASE WHEN t.description <> '' THEN E'\\n' || t.description ELSE '' END AS text, NULL::uuid AS "postId", t.id AS "timelineId" FROM feed_timelines t WHERE t.id = $1`,
};

const ACTION_COLUMNS = `a.id, a.moderator_id AS "moderatorId", m.username AS "moderatorUsername", a.action, a.content_type AS "contentType", a.content_id AS "contentId",
  a.subject_user_id AS "subjectUserId", s.username AS "subjectUsername", a.reason, a.until, a.created_at AS "createdAt", ${cursorTimestamp('a.created_at')} AS "keyAt"`;

/**
 * The moderation desk's tables: staff roles, the append-only audit log (moderation_actions), the
 * standing decisions on items (moderated_content), suspensions and appeals; and the reports and
 * items they are about.
 */
export class ModerationRepository {
  constructor(private readonly dataSource: DataSource) {}

  async roleOf(userId: string): Promise<StaffRole | null> {
    const [row] = (await this.dataSource.query('SELECT role FROM staff_roles WHERE user_id = $1', [userId])) as Array<{ role: StaffRole }>;
    return row?.role ?? null;
  }

  /** The item with its author, as it stands; null when there is none. */
  async item(type: ReportableType, id: string, manager?: EntityManager): Promise<ItemRow | null> {
    const runner = manager ?? this.dataSource;
    const [row] = (await runner.query(
      `SELECT i.*, u.username AS "authorUsername", u.display_name AS "authorDisplayName",
              coalesce(mc.hidden, false) AS hidden, coalesce(mc.sensitive, false) AS sensitive
         FROM (${ITEM_SQL[type]}) i
         LEFT JOIN users u ON u.id = i."authorId"
         LEFT JOIN moderated_content mc ON mc.content_type = i."contentType" AND mc.content_id = i."contentId"`,
      [id],
    )) as ItemRow[];
    return row ?? null;
  }

  /** Items with pending reports, the most reported first, then the longest waiting. */
  async pendingGroups(limit: number): Promise<ReportGroupRow[]> {
    return (await this.dataSource.query(
      `SELECT content_type AS "contentType", content_id AS "contentId", count(*)::int AS reporters,
              array_agg(reason ORDER BY created_at) AS reasons,
              coalesce(array_agg(description ORDER BY created_at) FILTER (WHERE description IS NOT NULL), '{}') AS notes,
              min(created_at) AS "firstReportedAt", max(created_at) AS "lastReportedAt"
         FROM content_reports WHERE status = 'pending'
        GROUP BY content_type, content_id
        ORDER BY count(*) DESC, min(created_at), content_id
        LIMIT $1`,
      [limit],
    )) as ReportGroupRow[];
  }

  async pendingAppeals(limit: number): Promise<AppealRow[]> {
    return (await this.dataSource.query(
      `SELECT ap.id, ap.action_id AS "actionId", ap.author_id AS "authorId", u.username AS "authorUsername", ap.content_type AS "contentType", ap.content_id AS "contentId",
              ap.text, ap.status, ap.created_at AS "createdAt", a.action, a.reason AS "actionReason"
         FROM moderation_appeals ap JOIN moderation_actions a ON a.id = ap.action_id LEFT JOIN users u ON u.id = ap.author_id
        WHERE ap.status = 'pending' ORDER BY ap.created_at, ap.id LIMIT $1`,
      [limit],
    )) as AppealRow[];
  }

  async appeal(manager: EntityManager, id: string): Promise<AppealRow | null> {
    const [row] = (await manager.query(
      `SELECT ap.id, ap.action_id AS "actionId", ap.author_id AS "authorId", NULL AS "authorUsername", ap.content_type AS "contentType", ap.content_id AS "contentId",
              ap.text, ap.status, ap.created_at AS "createdAt", a.action, a.reason AS "actionReason"
         FROM moderation_appeals ap JOIN moderation_actions a ON a.id = ap.action_id WHERE ap.id = $1 FOR UPDATE OF ap`,
      [id],
    )) as AppealRow[];
    return row ?? null;
  }

  async closeAppeal(manager: EntityManager, id: string, status: 'upheld' | 'granted'): Promise<void> {
    await manager.query(`UPDATE moderation_appeals SET status = $2 WHERE id = $1`, [id, status]);
  }

  /** Appends to the audit log. */
  async record(manager: EntityManager, action: { id: string; moderatorId: string | null; action: string; contentType?: string | null; contentId?: string | null; subjectUserId?: string | null; reason: string; until?: Date | null }): Promise<void> {
    await manager.query(
      `INSERT INTO moderation_actions (id, moderator_id, action, content_type, content_id, subject_user_id, reason, until) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [action.id, action.moderatorId, action.action, action.contentType ?? null, action.contentId ?? null, action.subjectUserId ?? null, action.reason, action.until ?? null],
    );
  }

  async action(id: string, manager?: EntityManager): Promise<ActionRow | null> {
    const [row] = (await (manager ?? this.dataSource).query(
      `SELECT ${ACTION_COLUMNS} FROM moderation_actions a LEFT JOIN users m ON m.id = a.moderator_id LEFT JOIN users s ON s.id = a.subject_user_id WHERE a.id = $1`,
      [id],
    )) as Array<ActionRow & { keyAt: string }>;
    return row ? { ...row, key: [row.keyAt, row.id] } : null;
  }

  /** The audit log, newest first, after the cursor key. */
  async log(limit: number, after?: CursorKey): Promise<ActionRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${ACTION_COLUMNS} FROM moderation_actions a LEFT JOIN users m ON m.id = a.moderator_id LEFT JOIN users s ON s.id = a.subject_user_id
        WHERE ($2::timestamptz IS NULL OR (a.created_at, a.id) < ($2::timestamptz, $3::uuid))
        ORDER BY a.created_at DESC, a.id DESC LIMIT $1`,
      [limit, after?.[0] ?? null, after?.[1] ?? null],
    )) as Array<ActionRow & { keyAt: string }>;
    return rows.map((row) => ({ ...row, key: [row.keyAt, row.id] }));
  }

  /** Closes the item's pending reports; answers the reporters. */
  async closeReports(manager: EntityManager, type: string, id: string, status: 'dismissed' | 'resolved', moderatorId: string, notes: string): Promise<string[]> {
    const rows = (await manager.query(
      `UPDATE content_reports SET status = $3, moderator_id = $4, moderator_notes = $5, resolved_at = now()
        WHERE content_type = $1 AND content_id = $2 AND status = 'pending' RETURNING reporter_id AS "reporterId"`,
      [type, id, status, moderatorId, notes],
    )) as [Array<{ reporterId: string }>, number];
    return rows[0].map((r) => r.reporterId);
  }

  /** Sets the standing decision on an item; answers its new version. */
  async setState(manager: EntityManager, item: { contentType: string; contentId: string; authorId: string }, state: { hidden: boolean; sensitive: boolean }, actionId: string): Promise<bigint> {
    const [row] = (await manager.query(
      `INSERT INTO moderated_content (content_type, content_id, author_id, hidden, sensitive, action_id, version)
       VALUES ($1, $2, $3, $4, $5, $6, nextval('moderation_version_seq'))
       ON CONFLICT (content_type, content_id) DO UPDATE SET hidden = $4, sensitive = $5, action_id = $6, version = nextval('moderation_version_seq')
       RETURNING version`,
      [item.contentType, item.contentId, item.authorId, state.hidden, state.sensitive, actionId],
    )) as Array<{ version: string }>;
    return BigInt(row!.version);
  }

  async suspension(userId: string, manager?: EntityManager): Promise<SuspensionRow | null> {
    const [row] = (await (manager ?? this.dataSource).query(
      `SELECT user_id AS "userId", until, reason FROM account_suspensions WHERE user_id = $1 AND (until IS NULL OR until > now())`,
      [userId],
    )) as SuspensionRow[];
    return row ?? null;
  }

  async suspend(manager: EntityManager, userId: string, until: Date | null, reason: string, actionId: string): Promise<bigint> {
    const [row] = (await manager.query(
      `INSERT INTO account_suspensions (user_id, until, reason, action_id, version) VALUES ($1, $2, $3, $4, nextval('moderation_version_seq'))
       ON CONFLICT (user_id) DO UPDATE SET until = $2, reason = $3, action_id = $4, version = nextval('moderation_version_seq')
       RETURNING version`,
      [userId, until, reason, actionId],
    )) as Array<{ version: string }>;
    return BigInt(row!.version);
  }

  /** Lifts a suspension; answers the lift's version, null when there was none in force. */
  async lift(manager: EntityManager, userId: string): Promise<bigint | null> {
    const [rows] = (await manager.query(`DELETE FROM account_suspensions WHERE user_id = $1 RETURNING (until IS NULL OR until > now()) AS active`, [userId])) as [Array<{ active: boolean }>, number];
    if (!rows[0]?.active) return null;
    const [row] = (await manager.query(`SELECT nextval('moderation_version_seq') AS version`)) as Array<{ version: string }>;
    return BigInt(row!.version);
  }

  async personExists(userId: string): Promise<boolean> {
    return ((await this.dataSource.query('SELECT 1 FROM users WHERE id = $1', [userId])) as unknown[]).length > 0;
  }

  /** What the desk did about the person's content or account, newest first. */
  async notices(userId: string, limit: number): Promise<NoticeRow[]> {
    return (await this.dataSource.query(
      `SELECT a.id AS "actionId", a.action, a.content_type AS "contentType", a.content_id AS "contentId", a.reason, a.until, a.created_at AS "createdAt", ap.status AS "appealStatus"
         FROM moderation_actions a LEFT JOIN moderation_appeals ap ON ap.action_id = a.id
        WHERE a.subject_user_id = $1 AND a.action IN ('hide', 'sensitive', 'warn', 'suspend')
        ORDER BY a.created_at DESC, a.id DESC LIMIT $2`,
      [userId, limit],
    )) as NoticeRow[];
  }

  /** Files the appeal; false when the decision was already appealed. */
  async addAppeal(manager: EntityManager, appeal: { id: string; actionId: string; authorId: string; contentType: string | null; contentId: string | null; text: string }): Promise<boolean> {
    const rows = (await manager.query(
      `INSERT INTO moderation_appeals (id, action_id, author_id, content_type, content_id, text) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (action_id) DO NOTHING RETURNING id`,
      [appeal.id, appeal.actionId, appeal.authorId, appeal.contentType, appeal.contentId, appeal.text],
    )) as unknown[];
    return rows.length > 0;
  }
}
