import { createHmac, randomUUID } from 'node:crypto';
import type { Caller, EventWriter } from '@timeliner/platform';
import type { DataSource } from 'typeorm';
import type { TimelineAccess } from '../access/timeline-access.service.js';
import { refreshActivity } from '../timelines/activity.js';
import { publishSnapshot } from '../timelines/snapshot.js';
import type { AnalyticsDto, RecordShareDto, RecordViewDto } from './analytics.dto.js';
import { type EngagementKind, TimelineEngagement, TimelineView } from './timeline-view.entity.js';

/** A viewer's views of one timeline within this window count once (watch time and completion merge). */
const VIEW_WINDOW_MINUTES = 30;
/** The same share or download by the same viewer within this window is recorded once. */
const ENGAGEMENT_WINDOW_MINUTES = 10;
const DAYS = 30;
const TOP_REGIONS = 5;

const REGIONS = new Set(['Africa', 'America', 'Antarctica', 'Arctic', 'Asia', 'Atlantic', 'Australia', 'Europe', 'Indian', 'Pacific']);

/** 'Europe/Paris' → 'Europe'; zones without a continent (UTC, Etc/GMT+2) have no region. */
export const regionOf = (timeZone: string | undefined): string | null => {
  const region = timeZone?.split('/')[0];
  return region && REGIONS.has(region) ? region : null;
};

const round1 = (n: number) => Math.round(n * 10) / 10;

export interface ViewerContext {
  caller: Caller;
  userAgent: string | undefined;
}

/** Views, shares and downloads of timelines, and the figures computed from them. */
export class AnalyticsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: TimelineAccess,
    /** Key for hashing anonymous viewers; the identity secret every replica shares. */
    private readonly viewerKeySecret: string,
    /** A counted view changes the timeline's snapshot (views, activity). */
    private readonly events: EventWriter,
  ) {}

  async recordView(viewer: ViewerContext, timelineId: string, dto: RecordViewDto): Promise<void> {
    await this.access.authorize(viewer.caller, timelineId, 'view');
    const viewerKey = this.viewerKey(viewer);
    const counted = await this.dataSource.transaction(async (manager) => {
      // One viewer's calls for one timeline go one at a time, so a burst counts as one view.
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`view:${timelineId}:${viewerKey}`]);
      const recent: Array<{ id: string }> = await manager.query(
        `SELECT id FROM timeline_views WHERE timeline_id = $1 AND viewer_key = $2 AND created_at > now() - make_interval(mins => $3)
          ORDER BY created_at DESC LIMIT 1`,
        [timelineId, viewerKey, VIEW_WINDOW_MINUTES],
      );
      const region = regionOf(dto.timeZone);
      if (recent[0]) {
        await manager.query(
          `UPDATE timeline_views SET watch_time = greatest(watch_time, $2), completion = greatest(completion, $3), region = coalesce(region, $4) WHERE id = $1`,
          [recent[0].id, dto.watchTime, dto.completion, region],
        );
        return false;
      }
      await manager.insert(TimelineView, { id: randomUUID(), timelineId, viewerKey, watchTime: dto.watchTime, completion: dto.completion, region });
      await manager.query('UPDATE timelines SET views = views + 1 WHERE id = $1', [timelineId]);
      await refreshActivity(manager, timelineId);
      return publishSnapshot(manager, this.events, timelineId, { ...(viewer.caller.userId ? { actorUserId: viewer.caller.userId } : {}), requestId: viewer.caller.requestId });
    });
    if (counted) this.events.committed();
  }

  async recordShare(viewer: ViewerContext, timelineId: string, dto: RecordShareDto): Promise<void> {
    await this.recordEngagement(viewer, timelineId, 'share', dto.channel ?? null);
  }

  async recordDownload(viewer: ViewerContext, timelineId: string): Promise<void> {
    await this.recordEngagement(viewer, timelineId, 'download', null);
  }

  async report(caller: Caller, timelineId: string): Promise<AnalyticsDto> {
    await this.access.authorize(caller, timelineId, 'seeAnalytics');
    const q = <T>(sql: string, params: unknown[] = [timelineId]) => this.dataSource.query<T[]>(sql, params);
    const [[totals], engagements, [peak], days, regions] = await Promise.all([
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
        [timelineId, DAYS],
      ),
      q<{ region: string; views: string }>(
        `SELECT coalesce(region, 'Unknown') AS region, count(*) AS views FROM timeline_views WHERE timeline_id = $1
          GROUP BY 1 ORDER BY 2 DESC, 1 ASC LIMIT $2`,
        [timelineId, TOP_REGIONS],
      ),
    ]);
    const totalViews = Number(totals?.total ?? 0);
    const countOf = (kind: EngagementKind) => Number(engagements.find((e) => e.kind === kind)?.n ?? 0);
    const shares = countOf('share');
    const downloads = countOf('download');
    return {
      totalViews,
      uniqueViewers: Number(totals?.viewers ?? 0),
      avgWatchTime: round1(Number(totals?.watch ?? 0)),
      completionRate: round1(Number(totals?.completion ?? 0) * 100),
      shares,
      downloads,
      peakViewingTime: peak ? `${String(peak.hour).padStart(2, '0')}:00` : null,
      viewsByDay: days.map((d) => ({ day: d.day, views: Number(d.views) })),
      topRegions: regions.map((r) => ({ region: r.region, views: Number(r.views), percentage: round1((Number(r.views) / totalViews) * 100) })),
      hasData: totalViews + shares + downloads > 0,
    };
  }

  private async recordEngagement(viewer: ViewerContext, timelineId: string, kind: EngagementKind, channel: string | null): Promise<void> {
    const { role } = await this.access.authorize(viewer.caller, timelineId, 'view');
    // The team copying its own link (owner, editors) is not the audience sharing it: not counted.
    if (kind === 'share' && (role === 'owner' || role === 'editor')) return;
    const viewerKey = this.viewerKey(viewer);
    await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${kind}:${timelineId}:${viewerKey}`]);
      const recent: unknown[] = await manager.query(
        `SELECT 1 FROM timeline_engagements WHERE timeline_id = $1 AND kind = $2 AND viewer_key = $3 AND channel IS NOT DISTINCT FROM $4
            AND created_at > now() - make_interval(mins => $5) LIMIT 1`,
        [timelineId, kind, viewerKey, channel, ENGAGEMENT_WINDOW_MINUTES],
      );
      if (recent.length > 0) return;
      await manager.insert(TimelineEngagement, { id: randomUUID(), timelineId, kind, channel, viewerKey });
    });
  }

  /** `u:<user id>`, or for anonymous viewers a keyed hash of address, browser and UTC day: no personal data is stored. */
  /**
   * Who is viewing: the person when signed in; otherwise the client address, hashed with a daily
   * salt (never stored in the clear). The User-Agent is deliberately not part of it: a client can
   * send any, so it would let one address count as many viewers (several people behind one
   * address count once per window, the price of counters nobody can inflate).
   */
  private viewerKey({ caller }: ViewerContext): string {
    if (caller.userId) return `u:${caller.userId}`;
    const day = new Date().toISOString().slice(0, 10);
    return `a:${createHmac('sha256', this.viewerKeySecret).update(`${caller.clientIp}\n${day}`).digest('base64url')}`;
  }
}
