import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { ModerationReviewNote } from '../../../components/ui/moderation-review-note';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { LeaveTimelineButton } from '../../../features/collaboration/components/leave-timeline';
import { SaveToCollectionButton } from '../../../features/collections/components/save-to-collection';
import { useVideos } from '../../../features/media/api/get-videos';
import type { Video } from '../../../features/media/api/types';
import { TimelinePlayer, type TimelineViewFigures } from '../../../features/media/components/timeline-player';
import '../../../features/media/components/player.css';
import { timelineQueryKey, useTimeline } from '../../../features/timelines/api/get-timeline';
import { neighbours, useTimelines } from '../../../features/timelines/api/get-timelines';
import { recordView } from '../../../features/timelines/api/record-view';
import { ApiError } from '../../../lib/api-client';
import { useUser } from '../../../lib/current-user';
import { resolveStart, startProblemMessage, type StartPoint, type WatchPosition } from '../../../lib/deep-link';
import { WatchShareButton } from './watch-share';
import { commentModerationFor, ReportItemButton, useItemCover } from './watch-item-safety';

// Only a sensitive timeline loads its cover's code (and the viewer's preference); the player's first paint sends none of it.
const SensitiveCover = lazy(() => import('../../../features/viewing/components/sensitive-cover').then((module) => ({ default: module.SensitiveCover })));

/** Staff reviewing a taken-out timeline record no view of it (the server would refuse it). */
const noView = () => undefined;

/** A video can be played once it is processed, or as soon as its first rendition exists. */
const playable = (video: Video) => video.status === 'completed' || Boolean(video.hlsUrl);

function PlayerState({ title, children, onBack }: { title: string; children?: ReactNode; onBack: () => void }) {
  return (
    <div className="player-state">
      <button type="button" className="player__icon-button player-state__back" onClick={onBack} aria-label="Back">
        <ArrowLeftIcon width={22} height={22} />
      </button>
      <h1>{title}</h1>
      {children}
    </div>
  );
}

/** A link's start point that could not be followed is said once, in a toast; the player starts as resolved. */
function StartProblemNotice({ point }: { point: StartPoint }) {
  const told = useRef(false);
  useEffect(() => {
    if (told.current || !point.problem) return;
    told.current = true;
    toast(startProblemMessage(point.problem, point));
  }, [point]);
  return null;
}

function Watch({ id }: { id: string }) {
  const navigate = useNavigate();
  // Where a link starts the player (lib/deep-link.ts): `?item=3&t=42`, the third item at its 42nd
  // second; or `?video={id}`, a link to one video of the timeline (a notification about it).
  const [search] = useSearchParams();
  const timeline = useTimeline(id);
  const videos = useVideos(id);
  const timelines = useTimelines();
  const queryClient = useQueryClient();
  const signedIn = Boolean(useUser().data);
  const itemCover = useItemCover(videos.data ?? [], signedIn);

  const goBack = useCallback(() => {
    // A shared link opens the player first; there is then no history entry to return to.
    if (window.history.state && (window.history.state as { idx?: number }).idx) void navigate(-1);
    else void navigate('/');
  }, [navigate]);
  const onLeaveVideo = useCallback((view: TimelineViewFigures) => recordView(id, view), [id]);
  const onLeftTeam = useCallback(() => {
    queryClient.removeQueries({ queryKey: timelineQueryKey(id) });
    void queryClient.invalidateQueries({ queryKey: ['timelines'] });
    void navigate('/', { replace: true });
  }, [queryClient, id, navigate]);

  if (timeline.isPending || (videos.isPending && !videos.isError)) {
    return (
      <div className="player-state">
        <Spinner label="Loading timeline..." />
      </div>
    );
  }
  if (timeline.isError) {
    if (timeline.error instanceof ApiError && timeline.error.status === 404) {
      return (
        <PlayerState title="Timeline Not Found" onBack={goBack}>
          <p>This timeline doesn&apos;t exist, or you don&apos;t have access to it.</p>
        </PlayerState>
      );
    }
    return (
      <PlayerState title="Timeline unavailable" onBack={goBack}>
        <p>This timeline could not be loaded. Check your connection and try again.</p>
        <button type="button" className="button button--primary" onClick={() => void timeline.refetch()}>
          Try again
        </button>
      </PlayerState>
    );
  }

  const list = (videos.data ?? []).filter(playable);
  // The timeline's own team is not asked to report its items.
  const team = timeline.data.role === 'owner' || timeline.data.role === 'editor';
  // A timeline the moderators took out reaches someone but its owner only when staff open it from
  // the desk: read-only there (nothing to report, share or save), under the desk's note.
  const reviewing = Boolean(timeline.data.removedByModerators) && timeline.data.role !== 'owner';
  const reviewNote = reviewing ? <ModerationReviewNote className="moderation-review-note--player" /> : null;
  const start = resolveStart(search, list);
  const around = neighbours(timelines.data ?? [], id);
  const openTimeline = (next: string | undefined) => (next ? () => void navigate(`/watch/${encodeURIComponent(next)}`, { replace: true }) : undefined);

  if (videos.isError || list.length === 0) {
    return (
      <PlayerState title={timeline.data.title} onBack={goBack}>
        {reviewNote}
        <p>{videos.isError ? 'The videos could not be loaded.' : 'No videos in this timeline'}</p>
        {timeline.data.role && timeline.data.role !== 'owner' ? (
          <LeaveTimelineButton timelineId={timeline.data.id} title={timeline.data.title} className="button button--secondary" onLeft={onLeftTeam} />
        ) : null}
        {videos.isError ? (
          <button type="button" className="button button--primary" onClick={() => void videos.refetch()}>
            Try again
          </button>
        ) : null}
      </PlayerState>
    );
  }

  const player = (
    <TimelinePlayer
      key={id}
      timeline={timeline.data}
      videos={list}
      onBack={goBack}
      onNextTimeline={openTimeline(around.next)}
      onPreviousTimeline={openTimeline(around.previous)}
      onLeaveVideo={reviewing ? noView : onLeaveVideo}
      readOnly={reviewing}
      team={team}
      sensitiveCover={itemCover}
      commentModeration={commentModerationFor(timeline.data.role)}
      {...(team || reviewing ? {} : { itemActions: (item: Video) => <ReportItemButton item={item} /> })}
      startAt={list[start.index]?.id ?? null}
      startTime={start.time}
      {...(reviewing ? {} : { share: (position: () => WatchPosition) => <WatchShareButton timeline={timeline.data} position={position} /> })}
      saveToCollection={
        reviewing ? undefined : (
          <>
            <SaveToCollectionButton timelineId={timeline.data.id} title={timeline.data.title} className="player__icon-button" />
            {/* A collaborator other than the owner (one added directly, say) may leave the team from here. */}
            {timeline.data.role && timeline.data.role !== 'owner' ? (
              <LeaveTimelineButton timelineId={timeline.data.id} title={timeline.data.title} look="icon" onLeft={onLeftTeam} />
            ) : null}
          </>
        )
      }
    />
  );
  return (
    <>
      <title>{`${timeline.data.title} · Timeliner`}</title>
      {start.problem ? <StartProblemNotice point={start} /> : null}
      {reviewNote}
      {timeline.data.sensitive ? (
        <Suspense fallback={<div className="sensitive-cover sensitive-cover--screen" aria-busy="true" />}>
          <SensitiveCover
            sensitive
            signedIn={signedIn}
            preview={timeline.data.thumbnailUrl}
            className="sensitive-cover--screen"
            actions={
              <button type="button" className="button button--secondary" onClick={goBack}>
                Go back
              </button>
            }
          >
            {player}
          </SensitiveCover>
        </Suspense>
      ) : (
        player
      )}
    </>
  );
}

/** The full-screen player at /watch/{id} (spec 001, "Watch player"). */
export default function WatchRoute() {
  const { id = '' } = useParams();
  return <Watch key={id} id={id} />;
}
