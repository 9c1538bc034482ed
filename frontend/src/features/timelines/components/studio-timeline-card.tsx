import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { formatDate, pluralize } from '../../../lib/format';
import { useVideoThumbnail } from '../../../lib/video-thumbnail';
import type { MyTimeline } from '../api/get-my-timelines';
import { canEditTimeline, roleLabel, visibilityLabel, visibilityTone } from '../lib/labels';
import { isSignedThumbnail } from '../lib/studio-list';
import './timelines.css';

/** A graphic standing in for a timeline that has no first-video thumbnail to show. */
function ThumbnailPlaceholder() {
  return (
    <svg className="studio-card__placeholder" viewBox="0 0 160 90" aria-hidden="true" focusable="false" data-testid="thumbnail-placeholder">
      <rect width="160" height="90" className="studio-card__placeholder-bg" />
      <path d="M70 30v30l26-15z" className="studio-card__placeholder-mark" />
      <rect x="30" y="72" width="100" height="4" rx="2" className="studio-card__placeholder-mark" />
    </svg>
  );
}

/**
 * The first video's thumbnail (spec 001, "Studio list"), fetched with the session by script: for
 * a URL without a signature (an <img src> cannot send the session); the placeholder until it
 * arrives, and when there is none or it cannot be had.
 */
function FetchedThumbnail({ url }: { url: string }) {
  const thumbnail = useVideoThumbnail(url);
  const image = useRef<HTMLImageElement>(null);
  const blob = thumbnail.data;

  useEffect(() => {
    const element = image.current;
    if (!element || !blob || typeof URL.createObjectURL !== 'function') return;
    const objectUrl = URL.createObjectURL(blob);
    element.src = objectUrl;
    return () => {
      element.removeAttribute('src');
      URL.revokeObjectURL(objectUrl);
    };
  }, [blob]);

  if (!blob) return <ThumbnailPlaceholder />;
  return <img ref={image} className="studio-card__image" alt="" width="160" height="90" decoding="async" />;
}

/**
 * The first video's thumbnail. The list signs it (`?access=`), so the browser loads it as soon
 * as the card renders, at a priority the card's place asks for (the first cards are what a phone
 * shows first), with no script between; the placeholder when there is none or it fails.
 */
function CardThumbnail({ url, priority }: { url: string | null; priority: boolean }) {
  const [failed, setFailed] = useState(false);
  if (!url || failed) return <ThumbnailPlaceholder />;
  if (!isSignedThumbnail(url)) return <FetchedThumbnail url={url} />;
  return (
    <img
      className="studio-card__image"
      src={url}
      alt=""
      width="160"
      height="90"
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : 'auto'}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}

/**
 * A Creator Studio card: thumbnail, visibility, video count, views and creation date. It opens
 * the timeline's studio for its owner and editors, the player for a viewer (who may only watch
 * and comment). `actions` (as the upload button) sit inside the card, above its whole-card link.
 */
export function StudioTimelineCard({
  timeline,
  actions,
  headingLevel = 2,
  priority = false,
}: {
  timeline: MyTimeline;
  actions?: ReactNode;
  headingLevel?: 2 | 3;
  /** Among the first cards of the page: its picture loads at once, ahead of the rest. */
  priority?: boolean;
}) {
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  const editable = canEditTimeline(timeline.role);
  const to = editable ? `/timeline/${encodeURIComponent(timeline.id)}` : `/watch/${encodeURIComponent(timeline.id)}`;
  return (
    <article className="card studio-card">
      <div className="studio-card__media">
        <CardThumbnail url={timeline.thumbnailUrl} priority={priority} />
        <span className="studio-card__badge">
          <Badge tone={visibilityTone(timeline.visibility)}>{visibilityLabel(timeline.visibility)}</Badge>
        </span>
      </div>
      <div className="studio-card__body">
        <Heading className="studio-card__title">
          <Link to={to} className="studio-card__link">
            {timeline.title}
          </Link>
        </Heading>
        <p className="studio-card__meta">
          <span>{pluralize(timeline.videoCount, 'video')}</span>
          {timeline.imageCount > 0 ? <span>{pluralize(timeline.imageCount, 'image')}</span> : null}
          <span>{pluralize(timeline.views, 'view')}</span>
          <span>Created {formatDate(timeline.createdAt)}</span>
        </p>
        {timeline.role && timeline.role !== 'owner' ? <Badge tone="brand">{`Shared with you · ${roleLabel(timeline.role)}`}</Badge> : null}
        {timeline.removedByModerators ? (
          <p className="studio-card__actions studio-card__removed" role="note">
            <Badge tone="danger">Removed by moderators</Badge> Only you can see it. <Link to="/moderation/notices">See why</Link>
          </p>
        ) : null}
        {actions ? <div className="studio-card__actions">{actions}</div> : null}
      </div>
    </article>
  );
}
