import { NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { EventWriter, SignedInCaller, TimelineAccess } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import { requireVisibleTimeline } from '../access/timeline-access.js';
import type { ReportableType } from './content-report.entity.js';
import type { CreateReportDto, ReportDto } from './report.dto.js';

const NOT_FOUND: Record<ReportableType, string> = {
  post: 'Post not found',
  timeline: 'Timeline not found',
  post_comment: 'Comment not found',
  timeline_comment: 'Comment not found',
  video_comment: 'Comment not found',
};

/** Where the timeline of a comment is, for the visibility check (a post comment has none). */
const COMMENT_TIMELINE: Partial<Record<ReportableType, string>> = {
  timeline_comment: 'SELECT timeline_id AS "timelineId" FROM timeline_comments WHERE id = $1',
  video_comment: 'SELECT timeline_id AS "timelineId" FROM video_comments WHERE id = $1',
};

interface ReportRow { id: string; contentType: ReportableType; contentId: string; reason: string; description: string | null; status: string; createdAt: Date }

const mapReport = (row: ReportRow): ReportDto => ({ ...row, createdAt: row.createdAt.toISOString() });

/**
 * Reports of posts, timelines and comments, filed once per reporter and item (filing again answers
 * the first report). Only what the reporter may see can be reported; a reported item leaves the
 * reporter's feed. Moderation reads content_reports (its screens come later).
 */
export class ReportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
  ) {}

  /** The report and whether it was filed now (false: the caller had already reported the item). */
  async file(caller: SignedInCaller, dto: CreateReportDto): Promise<{ report: ReportDto; created: boolean }> {
    const contentId = dto.contentId.toLowerCase();
    await this.requireVisible(caller, dto.contentType, contentId);
    const filed = await this.dataSource.transaction(async (manager) => {
      const [row] = (await manager.query(
        `INSERT INTO content_reports (id, reporter_id, content_type, content_id, reason, description)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT ON CONSTRAINT content_reports_once_per_reporter DO NOTHING
         RETURNING id, content_type AS "contentType", content_id AS "contentId", reason, description, status, created_at AS "createdAt"`,
        [randomUUID(), caller.userId, dto.contentType, contentId, dto.reason, dto.description || null],
      )) as ReportRow[];
      if (!row) return null;
      await this.events.add(manager, SocialEvents.ReportFiled, {
        reportId: row.id, reporterId: caller.userId, contentType: row.contentType, contentId, reason: row.reason,
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      return row;
    });
    if (filed) {
      this.events.committed();
      return { report: mapReport(filed), created: true };
    }
    const [existing] = (await this.dataSource.query(
      `SELECT id, content_type AS "contentType", content_id AS "contentId", reason, description, status, created_at AS "createdAt"
         FROM content_reports WHERE reporter_id = $1 AND content_type = $2 AND content_id = $3`,
      [caller.userId, dto.contentType, contentId],
    )) as ReportRow[];
    return { report: mapReport(existing!), created: false };
  }

  private async requireVisible(caller: SignedInCaller, type: ReportableType, id: string): Promise<void> {
    const missing = () => new NotFoundException(NOT_FOUND[type]);
    if (type === 'timeline') {
      await requireVisibleTimeline(this.access, id, caller.userId);
      return;
    }
    if (type === 'post' || type === 'post_comment') {
      const [row] = (await this.dataSource.query(`SELECT 1 FROM ${type === 'post' ? 'posts' : 'post_comments'} WHERE id = $1`, [id])) as unknown[];
      if (!row) throw missing();
      return;
    }
    const [row] = (await this.dataSource.query(COMMENT_TIMELINE[type]!, [id])) as Array<{ timelineId: string }>;
    if (!row) throw missing();
    try {
      await requireVisibleTimeline(this.access, row.timelineId, caller.userId);
    } catch (error) {
      if (error instanceof NotFoundException) throw missing();
      throw error;
    }
  }
}
