import type { TimelineAccess } from '@timeliner/platform';
import type { TimelineSummary, TimelineSummaryRepository } from '../access/timeline-summary.repository.js';
import { VisibleTimelines } from '../access/visible-timelines.js';
import type { PersonFilterRepository } from './person-filter.repository.js';

/**
 * The timelines lists show (collections, saved items), with blocks applied: a timeline whose
 * creator and the caller have blocked each other is as invisible as a private one, public or not.
 */
export class BlockedVisibleTimelines extends VisibleTimelines {
  constructor(
    summaryRows: TimelineSummaryRepository,
    access: TimelineAccess,
    private readonly filters: PersonFilterRepository,
  ) {
    super(summaryRows, access);
  }

  override async summaries(ids: string[], userId: string | undefined): Promise<Map<string, TimelineSummary>> {
    const visible = await super.summaries(ids, userId);
    if (!userId || visible.size === 0) return visible;
    const me = userId.toLowerCase();
    const { blocked } = await this.filters.viewOf(me, [...new Set([...visible.values()].map((s) => s.creatorId.toLowerCase()))]);
    for (const [id, summary] of visible) if (blocked.has(summary.creatorId.toLowerCase())) visible.delete(id);
    return visible;
  }

  override async canView(timelineId: string, userId: string | undefined): Promise<boolean> {
    if (!(await super.canView(timelineId, userId))) return false;
    if (!userId) return true;
    const [creator] = await this.filters.timelineCreators([timelineId]);
    return !creator || !(await this.filters.blockedEitherWay(userId.toLowerCase(), creator.creatorId));
  }
}
