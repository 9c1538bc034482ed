import { createHmac } from 'node:crypto';
import type { Caller, EventWriter, Transactions } from '@timeliner/platform';
import type { TimelineAccess } from '../access/timeline-access.service.js';
import { publishSnapshot } from '../timelines/snapshot.js';
import { type AnalyticsDto, mapAnalytics, type RecordShareDto, type RecordViewDto } from './analytics.dto.js';
import type { AnalyticsRepository } from './analytics.repository.js';
import type { EngagementKind } from './timeline-view.entity.js';

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

export interface ViewerContext {
  caller: Caller;
  userAgent: string | undefined;
}

/** Views, shares and downloads of timelines, and the figures computed from them. */
export class AnalyticsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly analytics: AnalyticsRepository,
    private readonly access: TimelineAccess,
    /** Key for hashing anonymous viewers; the identity secret every replica shares. */
    private readonly viewerKeySecret: string,
    /** A counted view changes the timeline's snapshot (views, activity). */
    private readonly events: EventWriter,
  ) {}

  async recordView(viewer: ViewerContext, timelineId: string, dto: RecordViewDto): Promise<void> {
    await this.access.authorize(viewer.caller, timelineId, 'view');
    const viewerKey = this.viewerKey(viewer);
    await this.transactions.run(async (manager) => {
      const view = { timelineId, viewerKey, watchTime: dto.watchTime, completion: dto.completion, region: regionOf(dto.timeZone) };
      if (!(await this.analytics.recordView(manager, view, VIEW_WINDOW_MINUTES))) return;
      await publishSnapshot(manager, this.events, timelineId, { ...(viewer.caller.userId ? { actorUserId: viewer.caller.userId } : {}), requestId: viewer.caller.requestId });
    });
  }

  async recordShare(viewer: ViewerContext, timelineId: string, dto: RecordShareDto): Promise<void> {
    await this.recordEngagement(viewer, timelineId, 'share', dto.channel ?? null);
  }

  async recordDownload(viewer: ViewerContext, timelineId: string): Promise<void> {
    await this.recordEngagement(viewer, timelineId, 'download', null);
  }

  async report(caller: Caller, timelineId: string): Promise<AnalyticsDto> {
    await this.access.authorize(caller, timelineId, 'seeAnalytics');
    return mapAnalytics(await this.analytics.figures(timelineId, DAYS, TOP_REGIONS));
  }

  private async recordEngagement(viewer: ViewerContext, timelineId: string, kind: EngagementKind, channel: string | null): Promise<void> {
    const { role } = await this.access.authorize(viewer.caller, timelineId, 'view');
    // The team copying its own link (owner, editors) is not the audience sharing it: not counted.
    if (kind === 'share' && (role === 'owner' || role === 'editor')) return;
    await this.analytics.recordEngagement(timelineId, kind, channel, this.viewerKey(viewer), ENGAGEMENT_WINDOW_MINUTES);
  }

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
