import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatNumber, formatRelativeTime, pluralize } from '../../../lib/format';

/** What the side columns need of a timeline (the list form of GET /api/timelines). */
export interface SidebarTimeline {
  id: string;
  title: string;
  videoCount: number;
  views: number;
  creatorId: string;
  creatorName?: string | null;
  createdAt: string;
  updatedAt: string;
  lastActivityAt?: string | null;
  visibility?: string;
  status?: string;
}

/** How many timelines each list shows (spec 000, section 9). */
export const TRENDING_COUNT = 12;
export const RECENT_COUNT = 6;
export const SUGGESTED_COUNT = 6;

const watchPath = (id: string) => `/watch/${encodeURIComponent(id)}`;
const activityTime = (timeline: SidebarTimeline) => timeline.lastActivityAt || timeline.updatedAt || timeline.createdAt;

/**
 * The first 12 timelines anyone may watch: public, published and with something in them. The
 * list also holds the viewer's own unlisted, private, draft and empty timelines, which trend for
 * nobody.
 */
export function trendingTimelines<T extends SidebarTimeline>(timelines: readonly T[]): T[] {
  return timelines
    .filter((timeline) => (timeline.visibility ?? 'public') === 'public' && (timeline.status ?? 'published') === 'published' && timeline.videoCount > 0)
    .slice(0, TRENDING_COUNT);
}

/** The last 6 timelines with activity, newest first. */
export function recentTimelines<T extends SidebarTimeline>(timelines: readonly T[]): T[] {
  return [...timelines]
    .sort((a, b) => new Date(activityTime(b)).getTime() - new Date(activityTime(a)).getTime())
    .slice(0, RECENT_COUNT);
}

/** The first 6 timelines made by someone else. */
export function suggestedTimelines<T extends SidebarTimeline>(timelines: readonly T[], viewerId: string): T[] {
  return timelines.filter((timeline) => timeline.creatorId !== viewerId).slice(0, SUGGESTED_COUNT);
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = `panel-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <section className="card side-panel" aria-labelledby={id}>
      <h2 className="side-panel__title" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}

function TimelineLinks({ timelines, label, detail }: { timelines: readonly SidebarTimeline[]; label: string; detail: (timeline: SidebarTimeline) => string }) {
  if (timelines.length === 0) return <p className="side-panel__note">No timelines yet.</p>;
  return (
    <ul className="side-list" aria-label={label}>
      {timelines.map((timeline) => (
        <li key={timeline.id}>
          <Link to={watchPath(timeline.id)} className="side-list__link">
            <span className="side-list__initial" aria-hidden="true">
              {timeline.title.trim().charAt(0).toUpperCase() || '?'}
            </span>
            <span className="side-list__text">
              <span className="side-list__title">{timeline.title}</span>
              <span className="side-list__detail">{detail(timeline)}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export interface ActivityTotals {
  timelinesCreated: number | null;
  totalViews: number | null;
  following: number | null;
}

const figure = (value: number | null) => (value === null ? '-' : formatNumber(value));

/** The left column's panels (the page places them in their column). */
export function LeftPanels({ trending, activity }: { trending: readonly SidebarTimeline[] | undefined; activity: ActivityTotals }) {
  return (
    <>
      <Panel title="Quick Actions">
        <div className="side-actions">
          <Link to="/studio" className="button button--secondary button--block">
            Creator Studio
          </Link>
          <Link to="/studio?create=true" className="button button--primary button--block">
            Create Timeline
          </Link>
        </div>
      </Panel>
      <Panel title="Trending">
        {trending ? (
          <TimelineLinks timelines={trendingTimelines(trending)} label="Trending timelines" detail={(timeline) => pluralize(timeline.videoCount, 'video')} />
        ) : (
          <p className="side-panel__note">Loading...</p>
        )}
      </Panel>
      <Panel title="Your Activity">
        <dl className="side-stats">
          <div>
            <dt>Timelines Created</dt>
            <dd>{figure(activity.timelinesCreated)}</dd>
          </div>
          <div>
            <dt>Total Views</dt>
            <dd>{figure(activity.totalViews)}</dd>
          </div>
          <div>
            <dt>Following</dt>
            <dd>{figure(activity.following)}</dd>
          </div>
        </dl>
      </Panel>
    </>
  );
}

const CREATOR_TIPS = [
  'Keep each video short: people watch a timeline one moment at a time.',
  'Give your timeline a clear title and a one-line description.',
  'Invite a collaborator to add the moments you missed.',
  'Share the watch link once your timeline is published.',
];

/** The right column's panels (the page places them in their column). */
export function RightPanels({ timelines, viewerId }: { timelines: readonly SidebarTimeline[] | undefined; viewerId: string }) {
  const all = timelines ?? [];
  const featured = [...all].sort((a, b) => b.views - a.views)[0];
  return (
    <>
      <Panel title="Recent Activity">
        <TimelineLinks timelines={recentTimelines(all)} label="Recent activity" detail={(timeline) => formatRelativeTime(activityTime(timeline))} />
      </Panel>
      <Panel title="Featured">
        {featured ? (
          <Link to={watchPath(featured.id)} className="side-featured">
            <span className="side-featured__title">{featured.title}</span>
            <span className="side-list__detail">
              {`${pluralize(featured.videoCount, 'video')} · ${pluralize(featured.views, 'view')}`}
            </span>
          </Link>
        ) : (
          <p className="side-panel__note">Nothing featured yet.</p>
        )}
      </Panel>
      <Panel title="Suggested for You">
        <TimelineLinks
          timelines={suggestedTimelines(all, viewerId)}
          label="Suggested timelines"
          detail={(timeline) => timeline.creatorName || pluralize(timeline.videoCount, 'video')}
        />
      </Panel>
      <Panel title="Creator Tips">
        <ul className="side-tips">
          {CREATOR_TIPS.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </Panel>
    </>
  );
}
