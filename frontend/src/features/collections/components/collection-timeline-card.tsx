import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDuration, pluralize } from '../../../lib/format';
import './collections.css';

export interface TimelineCardData {
  id: string;
  title: string;
  description?: string;
  creatorName: string;
  videoCount: number;
  duration: number;
}

/**
 * A timeline as a card that opens it in the player; the owner's controls go beside it, and `aside`
 * (badges such as its visibility) at its end.
 */
export function CollectionTimelineCard({ timeline, handle, onRemove, aside }: { timeline: TimelineCardData; handle?: ReactNode; onRemove?: () => void; aside?: ReactNode }) {
  return (
    <div className="card collection-timeline">
      {handle}
      <Link to={`/watch/${encodeURIComponent(timeline.id)}`} className="collection-timeline__link">
        <span className="collection-timeline__cover" aria-hidden="true">
          {timeline.title.trim().charAt(0).toUpperCase() || '?'}
        </span>
        <span className="collection-timeline__text">
          <span className="collection-timeline__title">{timeline.title}</span>
          <span className="collection-timeline__meta">
            {timeline.creatorName} · {pluralize(timeline.videoCount, 'video')} · {formatDuration(timeline.duration)}
          </span>
        </span>
      </Link>
      {aside}
      {onRemove ? (
        <button type="button" className="button button--ghost button--sm" onClick={onRemove} aria-label={`Remove ${timeline.title} from this collection`}>
          Remove
        </button>
      ) : null}
    </div>
  );
}
