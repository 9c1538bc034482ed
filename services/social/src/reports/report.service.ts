import { NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EventWriter, SignedInCaller, TimelineAccess, Transactions } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import { requireVisibleTimeline } from '../access/timeline-access.js';
import type { ReportableType } from './content-report.entity.js';
import { type CreateReportDto, mapReport, type ReportDto } from './report.dto.js';
import type { ReportRepository } from './report.repository.js';

const NOT_FOUND: Record<ReportableType, string> = {
  post: 'Post not found',
  timeline: 'Timeline not found',
  video: 'Video not found',
  post_comment: 'Comment not found',
  timeline_comment: 'Comment not found',
  video_comment: 'Comment not found',
};

/**
 * Reports of posts, timelines, single videos and images, and comments, filed once per reporter and item (filing again answers
 * the first report). Only what the reporter may see can be reported; a reported item leaves the
 * reporter's feed. Moderation reads content_reports (its screens come later).
 */
export class ReportService {
  constructor(
    private readonly transactions: Transactions,
    private readonly reports: ReportRepository,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
  ) {}

  /** The report and whether it was filed now (false: the caller had already reported the item). */
  async file(caller: SignedInCaller, dto: CreateReportDto): Promise<{ report: ReportDto; created: boolean }> {
    const contentId = dto.contentId.toLowerCase();
    await this.requireVisible(caller, dto.contentType, contentId);
    const filed = await this.transactions.run(async (manager) => {
      const row = await this.reports.insert(manager, {
        id: randomUUID(), reporterId: caller.userId, contentType: dto.contentType, contentId, reason: dto.reason, description: dto.description || null,
      });
      if (!row) return null;
      await this.events.add(manager, SocialEvents.ReportFiled, {
        reportId: row.id, reporterId: caller.userId, contentType: row.contentType, contentId, reason: row.reason,
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      return row;
    });
    if (filed) return { report: mapReport(filed), created: true };
    const existing = await this.reports.find(caller.userId, dto.contentType, contentId);
    return { report: mapReport(existing!), created: false };
  }

  private async requireVisible(caller: SignedInCaller, type: ReportableType, id: string): Promise<void> {
    const missing = () => new NotFoundException(NOT_FOUND[type]);
    if (type === 'timeline') {
      await requireVisibleTimeline(this.access, id, caller.userId);
      return;
    }
    if (type === 'post' || type === 'post_comment') {
      if (!(await this.reports.postItemSeen(type, id, caller.userId))) throw missing();
      return;
    }
    const timelineId = type === 'video' ? await this.reports.videoTimeline(id) : await this.reports.commentTimeline(type, id);
    if (!timelineId) throw missing();
    try {
      await requireVisibleTimeline(this.access, timelineId, caller.userId);
    } catch (error) {
      if (error instanceof NotFoundException) throw missing();
      throw error;
    }
  }
}
