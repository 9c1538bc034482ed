import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link, useNavigate } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { formatDate, formatDuration } from '../../../lib/format';
import type { MyTimeline } from '../api/get-my-timelines';
import { statusLabel, statusTone } from '../lib/labels';
import './timelines.css';

export interface DashboardTimelineCardProps {
  timeline: MyTimeline;
  onSettings: (timeline: MyTimeline) => void;
  onShare: (timeline: MyTimeline) => void;
  onDelete: (timeline: MyTimeline) => void;
}

/** One timeline on the experiences dashboard, with its actions menu. */
export function DashboardTimelineCard({ timeline, onSettings, onShare, onDelete }: DashboardTimelineCardProps) {
  const navigate = useNavigate();
  const studioPath = `/timeline/${encodeURIComponent(timeline.id)}`;
  const isOwner = timeline.role === 'owner';
  return (
    <article className="card dashboard-card" aria-labelledby={`dashboard-card-${timeline.id}`}>
      <div className="dashboard-card__head">
        <h2 className="dashboard-card__title" id={`dashboard-card-${timeline.id}`}>
          {timeline.title}
        </h2>
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger className="icon-button" aria-label={`Actions for ${timeline.title}`}>
            <svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true" focusable="false">
              <circle cx="5" cy="12" r="2" />
              <circle cx="12" cy="12" r="2" />
              <circle cx="19" cy="12" r="2" />
            </svg>
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" align="end" sideOffset={4} collisionPadding={8}>
              <DropdownMenu.Item className="menu__item" onSelect={() => void navigate(studioPath)}>
                Open Timeline
              </DropdownMenu.Item>
              {isOwner ? (
                <DropdownMenu.Item className="menu__item" onSelect={() => onSettings(timeline)}>
                  Settings
                </DropdownMenu.Item>
              ) : null}
              <DropdownMenu.Item className="menu__item" onSelect={() => onShare(timeline)}>
                Share
              </DropdownMenu.Item>
              {isOwner ? (
                <>
                  <DropdownMenu.Separator className="menu__separator" />
                  <DropdownMenu.Item className="menu__item menu__item--danger" onSelect={() => onDelete(timeline)}>
                    Delete
                  </DropdownMenu.Item>
                </>
              ) : null}
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </div>
      <Badge tone={statusTone(timeline.status)}>{statusLabel(timeline.status)}</Badge>
      {timeline.description ? <p className="dashboard-card__description">{timeline.description}</p> : null}
      <dl className="dashboard-card__meta">
        <div>
          <dt>Views</dt>
          <dd>{timeline.views.toLocaleString('en')}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(timeline.duration)}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDate(timeline.createdAt)}</dd>
        </div>
      </dl>
      <Link to={studioPath} className="button button--primary button--block" aria-label={`Open Timeline ${timeline.title}`}>
        Open Timeline
      </Link>
    </article>
  );
}

export function DashboardCardSkeleton() {
  return (
    <div className="card dashboard-card dashboard-card--skeleton" aria-hidden="true">
      <span className="skeleton skeleton--title" />
      <span className="skeleton skeleton--badge" />
      <span className="skeleton skeleton--line" />
      <span className="skeleton skeleton--line skeleton--short" />
      <span className="skeleton skeleton--button" />
    </div>
  );
}

export interface DashboardSummaryProps {
  total: number;
  published: number;
  views: number;
  minutes: number;
}

/** The four summary cards: Total Timelines, Published, Total Views and Total Duration in whole minutes. */
export function DashboardSummaryCards({ total, published, views, minutes }: DashboardSummaryProps) {
  const cards: [string, string][] = [
    ['Total Timelines', total.toLocaleString('en')],
    ['Published', published.toLocaleString('en')],
    ['Total Views', views.toLocaleString('en')],
    ['Total Duration', `${minutes.toLocaleString('en')} min`],
  ];
  return (
    <section aria-label="Summary">
      <dl className="summary-grid">
        {cards.map(([label, value]) => (
          <div key={label} className="card summary-grid__item">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
