import type { TimelineAccess } from '@timeliner/platform';
import type { DataSource } from 'typeorm';

/** What lists show of a timeline, from the feed_timelines read model. */
export interface TimelineSummary {
  id: string;
  title: string;
  description: string;
  videoCount: number;
  duration: number;
  creatorId: string;
  creatorName: string;
  coverMediaId: string | null;
}

interface SummaryRow extends TimelineSummary {
  visibility: string;
  status: string;
}

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
    private readonly dataSource: DataSource,
    private readonly access: TimelineAccess,
  ) {}

  /** The summaries of the timelines among `ids` the caller may see, by id. */
  async summaries(ids: string[], userId: string | undefined): Promise<Map<string, TimelineSummary>> {
    const visible = new Map<string, TimelineSummary>();
    const unique = [...new Set(ids)];
    if (unique.length === 0) return visible;
    const rows = (await this.dataSource.query(
      `SELECT id, title, description, video_count AS "videoCount", duration, creator_id AS "creatorId", creator_name AS "creatorName",
              cover_media_id AS "coverMediaId", visibility, status
         FROM feed_timelines WHERE id = ANY($1::uuid[])`,
      [unique],
    )) as SummaryRow[];
    const toAsk: SummaryRow[] = [];
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
    const [row] = (await this.dataSource.query('SELECT visibility, status FROM feed_timelines WHERE id = $1', [timelineId])) as Array<Pick<SummaryRow, 'visibility' | 'status'>>;
    if (row && isPublic(row)) return true;
    return (await this.access.check(timelineId, userId)).canView;
  }
}

const isPublic = (row: Pick<SummaryRow, 'visibility' | 'status'>) => row.visibility === 'public' && row.status === 'published';

const summaryOf = (row: SummaryRow): TimelineSummary => ({
  id: row.id,
  title: row.title,
  description: row.description,
  videoCount: row.videoCount,
  duration: row.duration,
  creatorId: row.creatorId,
  creatorName: row.creatorName,
  coverMediaId: row.coverMediaId,
});
