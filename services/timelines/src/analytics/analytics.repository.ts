import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { refreshActivity } from '../timelines/activity.js';
import { type EngagementKind, TimelineEngagement, TimelineView } from './timeline-view.entity.js';

export interface ViewRecord {
  timelineId: string;
  viewerKey: string;
  watchTime: number;
  completion: number;
  region: string | null;
}

/** The recorded rows of one timeline, summed up (analytics.dto.ts's mapAnalytics shapes them). */
export interface AnalyticsFigures {
  totals: { total: string; viewers: string; watch: number | null; completion: number | null } | undefined;
  engagements: Array<{ kind: EngagementKind; n: string }>;
  peak: { hour: number } | undefined;
  days: Array<{ day: string; views: string }>;
  regions: Array<{ region: string; views: string }>;
}

/** Views, shares and downloads of timelines as recorded, and the sums the analytics are made of. */
export class AnalyticsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records a view in `tx`: one viewer's views of a timeline within `windowMinutes` are one (watch
   * time and completion merge to the highest), so true only for a view that counts, after which
   * the timeline's views and activity are up to date.
   */
  async recordView(tx: EntityManager, view: ViewRecord, windowMinutes: number): Promise<boolean> {
    const { timelineId, viewerKey } = view;
    // One viewer's calls for one timeline go one at a time, so a burst counts as one view.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`view:${timelineId}:${viewerKey}`]);
    const recent: Array<{ id: string }> = await tx.query(
      `SELECT id FROM timeline_views WHERE timeline_id = $1 AND viewer_key = $2 AND created_at > now() - make_interval(mins => $3)
        ORDER BY created_at DESC LIMIT 1`,
      [timelineId, viewerKey, windowMinutes],
    );
    if (recent[0]) {
      await tx.query(
        `UPDATE timeline_views SET watch_time = greatest(watch_time, $2), completion = greatest(completion, $3), region = coalesce(region, $4) WHERE id = $1`,
        [recent[0].id, view.watchTime, view.completion, view.region],
      );
      return false;
    }
    await tx.insert(TimelineView, { id: randomUUID(), timelineId, viewerKey, watchTime: view.watchTime, completion: view.completion, region: view.region });
    await tx.query('UPDATE timelines SET views = views + 1 WHERE id = $1', [timelineId]);
    await refreshActivity(tx, timelineId);
    return true;
  }

  /** Records a share or download, unless the same viewer's same one is recorded within `windowMinutes`. */
  async recordEngagement(timelineId: string, kind: EngagementKind, channel: string | null, viewerKey: string, windowMinutes: number): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${kind}:${timelineId}:${viewerKey}`]);
      const recent: unknown[] = await tx.query(
        `SELECT 1 FROM timeline_engagements WHERE timeline_id = $1 AND kind = $2 AND viewer_key = $3 AND channel IS NOT DISTINCT FROM $4
            AND created_at > now() - make_interval(mins => $5) LIMIT 1`,
        [timelineId, kind, viewerKey, channel, windowMinutes],
      );
      if (recent.length > 0) return;
      await tx.insert(TimelineEngagement, { id: randomUUID(), timelineId, kind, channel, viewerKey });
    });
  }

  /** The sums over a timeline's recorded rows: the last `days` UTC days, the `topRegions` regions with most views. */
  async figures(timelineId: string, days: number, topRegions: number): Promise<AnalyticsFigures> {
    const q = <T>(sql: string, params: unknown[] = [timelineId]) => this.dataSource.query<T[]>(sql, params);
    const [[totals], engagements, [peak], byDay, regions] = await Promise.all([
      q<{ total: string; viewers: string; watch: number | null; completion: number | null }>(
        `SELECT count(*) AS total, count(DISTINCT viewer_key) AS viewers, avg(watch_time) AS watch, avg(completion) AS completion
           FROM timeline_views WHERE timeline_id = $1`,
      ),
      q<{ kind: EngagementKind; n: string }>('SELECT kind, count(*) AS n FROM timeline_engagements WHERE timeline_id = $1 GROUP BY kind'),
      q<{ hour: number }>(
        `SELECT extract(hour FROM created_at AT TIME ZONE 'UTC')::int AS hour FROM timeline_views WHERE timeline_id = $1
          GROUP BY 1 ORDER BY count(*) DESC, 1 ASC LIMIT 1`,
      ),
      q<{ day: string; views: string }>(
        `SELECT to_char(d, 'YYYY-MM-DD') AS day, count(v.id) AS views
           FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($2::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d
           LEFT JOIN timeline_views v ON v.timeline_id = $1 AND (v.created_at AT TIME ZONE 'UTC')::date = d::date
          GROUP BY d ORDER BY d`,
        [timelineId, days],
      ),
      q<{ region: string; views: string }>(
        `SELECT coalesce(region, 'Unknown') AS region, count(*) AS views FROM timeline_views WHERE timeline_id = $1
          GROUP BY 1 ORDER BY 2 DESC, 1 ASC LIMIT $2`,
        [timelineId, topRegions],
      ),
    ]);
    return { totals, engagements, peak, days: byDay, regions };
  }
}
