import { Badge } from '../../../components/ui/badge';
import type { Timeline } from '../api/get-timeline';
import { statusLabel, statusTone, visibilityLabel, visibilityTone } from '../lib/labels';
import './timelines.css';

export interface TimelineSummaryCardProps {
  timeline: Timeline;
  /** From the timeline's analytics; undefined while loading or when they could not be loaded. */
  shares: number | undefined;
  sharesLoading: boolean;
}

/** The studio's summary of one timeline: title, description, status and its counts. */
export function TimelineSummaryCard({ timeline, shares, sharesLoading }: TimelineSummaryCardProps) {
  const stats: { label: string; value: string; hint?: string }[] = [
    { label: 'Videos', value: timeline.videoCount.toLocaleString('en') },
    { label: 'Comments', value: timeline.commentsCount.toLocaleString('en') },
    { label: 'Views', value: timeline.views.toLocaleString('en') },
    { label: 'Likes', value: timeline.likesCount.toLocaleString('en') },
    shares !== undefined
      ? { label: 'Shares', value: shares.toLocaleString('en') }
      : { label: 'Shares', value: sharesLoading ? '…' : '–', hint: sharesLoading ? 'Loading' : 'Not available' },
  ];
  return (
    <section className="card summary-card" aria-labelledby="timeline-title">
      <div className="summary-card__head">
        <h1 className="summary-card__title" id="timeline-title">
          {timeline.title}
        </h1>
        <div className="summary-card__badges">
          <Badge tone={statusTone(timeline.status)}>{statusLabel(timeline.status)}</Badge>
          <Badge tone={visibilityTone(timeline.visibility)}>{visibilityLabel(timeline.visibility)}</Badge>
        </div>
      </div>
      {timeline.description ? <p className="summary-card__description">{timeline.description}</p> : <p className="muted">No description yet.</p>}
      <dl className="stat-row">
        {stats.map((stat) => (
          <div key={stat.label} className="stat-row__item">
            <dt>{stat.label}</dt>
            <dd>
              {stat.value}
              {stat.hint ? <span className="visually-hidden"> ({stat.hint})</span> : null}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
