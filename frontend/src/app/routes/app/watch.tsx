import { useCallback, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useVideos } from '../../../features/media/api/get-videos';
import type { Video } from '../../../features/media/api/types';
import { TimelinePlayer, type TimelineViewFigures } from '../../../features/media/components/timeline-player';
import '../../../features/media/components/player.css';
import { useTimeline } from '../../../features/timelines/api/get-timeline';
import { neighbours, useTimelines } from '../../../features/timelines/api/get-timelines';
import { recordView } from '../../../features/timelines/api/record-view';
import { ApiError } from '../../../lib/api-client';

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

function Watch({ id }: { id: string }) {
  const navigate = useNavigate();
  const timeline = useTimeline(id);
  const videos = useVideos(id);
  const timelines = useTimelines();

  const goBack = useCallback(() => {
    // A shared link opens the player first; there is then no history entry to return to.
    if (window.history.state && (window.history.state as { idx?: number }).idx) void navigate(-1);
    else void navigate('/');
  }, [navigate]);
  const onLeaveVideo = useCallback((view: TimelineViewFigures) => recordView(id, view), [id]);

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
  const around = neighbours(timelines.data ?? [], id);
  const openTimeline = (next: string | undefined) => (next ? () => void navigate(`/watch/${encodeURIComponent(next)}`, { replace: true }) : undefined);

  if (videos.isError || list.length === 0) {
    return (
      <PlayerState title={timeline.data.title} onBack={goBack}>
        <p>{videos.isError ? 'The videos could not be loaded.' : 'No videos in this timeline'}</p>
        {videos.isError ? (
          <button type="button" className="button button--primary" onClick={() => void videos.refetch()}>
            Try again
          </button>
        ) : null}
      </PlayerState>
    );
  }

  return (
    <>
      <title>{`${timeline.data.title} · Timeliner`}</title>
      <TimelinePlayer
        key={id}
        timeline={timeline.data}
        videos={list}
        onBack={goBack}
        onNextTimeline={openTimeline(around.next)}
        onPreviousTimeline={openTimeline(around.previous)}
        onLeaveVideo={onLeaveVideo}
      />
    </>
  );
}

/** The full-screen player at /watch/{id} (spec 001, "Watch player"). */
export default function WatchRoute() {
  const { id = '' } = useParams();
  return <Watch key={id} id={id} />;
}
