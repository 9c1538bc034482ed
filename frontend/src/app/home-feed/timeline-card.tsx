import { lazy, Suspense, useId, useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../components/ui/avatar';
import { EngagementBar } from '../../components/ui/engagement-bar';
import { formatDuration, formatRelativeTime } from '../../lib/format';
import { nativeShare } from '../../lib/share-intents';
import { timelineWatchLink } from '../../features/timelines/lib/share-links';
import { useTimelineToggles } from '../../features/feed/hooks/use-timeline-toggles';
import type { FeedTimeline } from '../../features/feed/api/types';
import { FeedVideo } from '../../features/feed/components/feed-video';
import { SensitiveCoverOnDemand } from '../../features/viewing/components/sensitive-cover-on-demand';
import { TimelineOptions } from './timeline-options';

// Loaded when first opened: every card has them, few people open them.
const ShareTimelineDialog = lazy(() => import('./share-timeline-dialog').then((module) => ({ default: module.ShareTimelineDialog })));
// The comments, their composer and the team's controls: loaded when the thread is opened.
const TimelineComments = lazy(() => import('./timeline-comments').then((module) => ({ default: module.TimelineComments })));
const ReportDialog = lazy(() => import('../../features/feed/components/report-dialog').then((module) => ({ default: module.ReportDialog })));

export interface TimelineCardProps {
  timeline: FeedTimeline;
  /** The signed-in user's id: the creator sees Timeline Settings. */
  viewerId: string;
}

/** A timeline in the feed: creator, time, options, a 600 px preview, actions and comments. */
export function TimelineCard({ timeline, viewerId }: TimelineCardProps) {
  const id = useId();
  const [commentsOpen, setCommentsOpen] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [reporting, setReporting] = useState(false);
  const toggles = useTimelineToggles(timeline);
  const name = timeline.creator?.displayName || timeline.creatorName || 'Unknown User';
  const creatorId = timeline.creator?.id ?? timeline.creatorId;
  const profile = `/profile/${encodeURIComponent(creatorId)}`;
  const watch = `/watch/${encodeURIComponent(timeline.id)}`;
  const time = timeline.lastActivityAt || timeline.createdAt;

  const share = async () => {
    const result = await nativeShare({ title: timeline.title, url: timelineWatchLink(window.location.origin, timeline.id) });
    // Counted in the timeline's analytics (its code loaded once shared); a failure only loses the count.
    if (result === 'shared') void import('../../features/timelines/api/record-share').then(({ recordShare }) => recordShare(timeline.id, 'other')).catch(() => undefined);
    else if (result === 'unavailable') setSharing(true);
  };

  return (
    <article className="card feed-card timeline-card" aria-labelledby={`${id}-title`}>
      <header className="feed-card__header">
        <Link to={profile} className="feed-card__avatar" tabIndex={-1} aria-hidden="true">
          <Avatar name={name} src={timeline.creator?.avatar} />
        </Link>
        <div className="feed-card__who">
          <Link to={profile} className="feed-card__name">
            {name}
          </Link>
          <time className="feed-card__time" dateTime={time}>
            {formatRelativeTime(time)}
          </time>
        </div>
        <TimelineOptions timelineId={timeline.id} title={timeline.title} isCreator={creatorId === viewerId} onReport={() => setReporting(true)} />
      </header>

      <div className="timeline-card__preview">
        {timeline.coverMediaId ? (
          // A sensitive timeline's preview waits behind a blurred cover with Show (unless the viewer always shows sensitive media).
          <SensitiveCoverOnDemand sensitive={timeline.sensitive ?? false} className="sensitive-cover--card">
            <FeedVideo videoId={timeline.coverMediaId} title={timeline.title} description={timeline.coverAltText} />
          </SensitiveCoverOnDemand>
        ) : (
          <div className="timeline-card__placeholder" aria-hidden="true">
            {timeline.title.trim().charAt(0).toUpperCase() || '?'}
          </div>
        )}
        <Link to={watch} className="timeline-card__caption">
          <span className="timeline-card__title" id={`${id}-title`}>
            {timeline.title}
          </span>
          <span className="timeline-card__meta">{`Timeline • ${formatDuration(timeline.duration)}`}</span>
        </Link>
      </div>

      <EngagementBar
        liked={toggles.liked}
        likesCount={timeline.likesCount}
        commentsCount={timeline.commentsCount}
        bookmarked={toggles.bookmarked}
        commentsOpen={commentsOpen}
        commentsId={`${id}-comments`}
        onLike={toggles.toggleLike}
        onComments={() => setCommentsOpen((open) => !open)}
        onShare={() => void share()}
        onBookmark={toggles.toggleBookmark}
      />
      {commentsOpen ? (
        <div id={`${id}-comments`}>
          <Suspense fallback={<p className="comment-thread__note">Loading comments...</p>}>
            <TimelineComments timelineId={timeline.id} label={`Comments on ${timeline.title}`} />
          </Suspense>
        </div>
      ) : null}

      <Suspense fallback={null}>
        {sharing ? <ShareTimelineDialog timeline={timeline} open onOpenChange={setSharing} /> : null}
        {reporting ? <ReportDialog open onOpenChange={setReporting} target={{ contentType: 'timeline', contentId: timeline.id }} /> : null}
      </Suspense>
    </article>
  );
}
