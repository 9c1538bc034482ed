import type { TimelineAccess } from '@timeliner/platform';
import type { TimelineListing, TimelineSummary, TimelineSummaryRepository, TimelineSummaryRow } from './timeline-summary.repository.js';

/** How many access questions are in flight at once for one list. */
const CONCURRENT_CHECKS = 16;

/** Runs `task` over `items`, at most `limit` at a time; results in input order. */
async function pooled<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Which of some timelines a caller may see, with their summaries. A public, published timeline in
 * the read model is visible to everyone, without asking; for the rest (private, unlisted, drafts) the timelines service is asked, in parallel. A timeline
 * the read model does not know (yet) has no summary and is left out. When the timelines service
 * cannot answer, the whole read fails with 503: access is never guessed.
 */
export class VisibleTimelines {
  constructor(
    private readonly summaryRows: TimelineSummaryRepository,
    private readonly access: TimelineAccess,
  ) {}

  /** The summaries of the timelines among `ids` the caller may see, by id. */
  async summaries(ids: string[], userId: string | undefined): Promise<Map<string, TimelineSummary>> {
    const visible = new Map<string, TimelineSummary>();
    const unique = [...new Set(ids)];
    if (unique.length === 0) return visible;
    const rows = await this.summaryRows.summaries(unique);
    const toAsk: TimelineSummaryRow[] = [];
    for (const row of rows) {
      if (isPublic(row)) visible.set(row.id, summaryOf(row));
      else toAsk.push(row);
    }
    const answers = await pooled(toAsk, CONCURRENT_CHECKS, (row) => this.access.check(row.id, userId));
    toAsk.forEach((row, i) => {
      if (answers[i]!.canView) visible.set(row.id, summaryOf(row));
    });
    return visible;
  }

  /** Whether the caller may see one timeline (the read model first, then the timelines service). */
  async canView(timelineId: string, userId: string | undefined): Promise<boolean> {
    const row = await this.summaryRows.listing(timelineId);
    if (row && isPublic(row)) return true;
    return (await this.access.check(timelineId, userId)).canView;
  }
}

/** Listed for everyone without asking: public, published, its creator's account not private, and not taken out by the moderators. */
const isPublic = (row: TimelineListing) => row.visibility === 'public' && row.status === 'published' && !row.creatorPrivate && !row.moderatedOut;

const summaryOf = (row: TimelineSummaryRow): TimelineSummary => ({
  id: row.id,
  title: row.title,
  description: row.description,
  videoCount: row.videoCount,
  duration: row.duration,
  creatorId: row.creatorId,
  creatorName: row.creatorName,
  coverMediaId: row.coverMediaId,
});
