import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { formatDate, pluralize } from '../../../lib/format';
import type { MyTimeline } from '../api/get-my-timelines';
import { roleLabel, visibilityLabel, visibilityTone } from '../lib/labels';
import './timelines.css';

/** A graphic standing in for a timeline that has no first-video thumbnail to show. */
function ThumbnailPlaceholder() {
  return (
    <svg className="studio-card__placeholder" viewBox="0 0 160 90" aria-hidden="true" focusable="false">
      <rect width="160" height="90" className="studio-card__placeholder-bg" />
      <path d="M70 30v30l26-15z" className="studio-card__placeholder-mark" />
      <rect x="30" y="72" width="100" height="4" rx="2" className="studio-card__placeholder-mark" />
    </svg>
  );
}

/** A Creator Studio card: thumbnail, visibility, video count, views and creation date. */
export function StudioTimelineCard({ timeline }: { timeline: MyTimeline }) {
  const { thumbnailUrl } = timeline;
  return (
    <article className="card studio-card">
      <div className="studio-card__media">
        {thumbnailUrl ? <img className="studio-card__image" src={thumbnailUrl} alt="" loading="lazy" width="160" height="90" /> : <ThumbnailPlaceholder />}
        <span className="studio-card__badge">
          <Badge tone={visibilityTone(timeline.visibility)}>{visibilityLabel(timeline.visibility)}</Badge>
        </span>
      </div>
      <div className="studio-card__body">
        <h2 className="studio-card__title">
          <Link to={`/timeline/${encodeURIComponent(timeline.id)}`} className="studio-card__link">
            {timeline.title}
          </Link>
        </h2>
        <p className="studio-card__meta">
          <span>{pluralize(timeline.videoCount, 'video')}</span>
          <span>{pluralize(timeline.views, 'view')}</span>
          <span>Created {formatDate(timeline.createdAt)}</span>
        </p>
        {timeline.role && timeline.role !== 'owner' ? <Badge tone="brand">{`Shared with you · ${roleLabel(timeline.role)}`}</Badge> : null}
      </div>
    </article>
  );
}
