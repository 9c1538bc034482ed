import type { DataSource, EntityManager } from 'typeorm';
import { notBlockedSql } from '../read-rules/person-filter-sql.js';
import { seenDespitePrivacySql } from '../private-accounts/private-account-sql.js';
import type { ReportableType } from './content-report.entity.js';

/** A report as the answer shows it. */
export interface ReportRow {
  id: string;
  contentType: ReportableType;
  contentId: string;
  reason: string;
  description: string | null;
  status: string;
  createdAt: Date;
}

const REPORT_COLUMNS = `id, content_type AS "contentType", content_id AS "contentId", reason, description, status, created_at AS "createdAt"`;

/** Where the timeline of a comment is, for the visibility check (a post comment has none). */
const COMMENT_TIMELINE: Record<'timeline_comment' | 'video_comment', string> = {
  timeline_comment: 'SELECT timeline_id AS "timelineId" FROM timeline_comments WHERE id = $1',
  video_comment: 'SELECT timeline_id AS "timelineId" FROM video_comments WHERE id = $1',
};

/** content_reports: one row per reporter and item; and the reported items' existence, for the checks before a report. */
export class ReportRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Files the report; null when the reporter had already reported the item (the first report stands). */
  async insert(manager: EntityManager, report: { id: string; reporterId: string; contentType: ReportableType; contentId: string; reason: string; description: string | null }): Promise<ReportRow | null> {
    const [row] = (await manager.query(
      `INSERT INTO content_reports (id, reporter_id, content_type, content_id, reason, description)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ON CONSTRAINT content_reports_once_per_reporter DO NOTHING
       RETURNING ${REPORT_COLUMNS}`,
      [report.id, report.reporterId, report.contentType, report.contentId, report.reason, report.description],
    )) as ReportRow[];
    return row ?? null;
  }

  /** The reporter's report of the item. */
  async find(reporterId: string, contentType: ReportableType, contentId: string): Promise<ReportRow | null> {
    const [row] = (await this.dataSource.query(
      `SELECT ${REPORT_COLUMNS} FROM content_reports WHERE reporter_id = $1 AND content_type = $2 AND content_id = $3`,
      [reporterId, contentType, contentId],
    )) as ReportRow[];
    return row ?? null;
  }

  /** Whether the post or post comment exists. */
  /**
   * Whether the post (or the post's comment) is there for the viewer: its author's account is not
   * private to them (private-accounts/) and neither of them blocked the other (person-filters/),
   * nor, for a comment, the comment's author.
   */
  async postItemSeen(type: 'post' | 'post_comment', id: string, viewerId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      type === 'post'
        ? `SELECT 1 FROM posts p WHERE p.id = $1 AND ${seenDespitePrivacySql('$2::uuid', 'p.user_id')} AND ${notBlockedSql('$2::uuid', 'p.user_id')}`
        : `SELECT 1 FROM post_comments c JOIN posts p ON p.id = c.post_id WHERE c.id = $1
             AND ${seenDespitePrivacySql('$2::uuid', 'p.user_id')} AND ${notBlockedSql('$2::uuid', 'p.user_id')} AND ${notBlockedSql('$2::uuid', 'c.user_id')}`,
      [id, viewerId],
    )) as unknown[];
    return rows.length > 0;
  }

  /** The timeline of a video or image that is still there; null when there is none. */
  async videoTimeline(id: string): Promise<string | null> {
    const [row] = (await this.dataSource.query('SELECT timeline_id AS "timelineId" FROM videos WHERE id = $1 AND NOT deleted', [id])) as Array<{ timelineId: string }>;
    return row?.timelineId ?? null;
  }

  /** The timeline a timeline or video comment is on; null when there is no such comment. */
  async commentTimeline(type: 'timeline_comment' | 'video_comment', id: string): Promise<string | null> {
    const [row] = (await this.dataSource.query(COMMENT_TIMELINE[type], [id])) as Array<{ timelineId: string }>;
    return row?.timelineId ?? null;
  }
}
