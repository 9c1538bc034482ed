import { lazy, Suspense, useCallback } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { useVideos } from '../../features/media/api/get-videos';
import type { Video } from '../../features/media/api/types';
import { TimelinePlayer, type TimelineViewFigures } from '../../features/media/components/timeline-player';
import '../../features/media/components/player.css';
import { useTimeline } from '../../features/timelines/api/get-timeline';
import { recordView } from '../../features/timelines/api/record-view';
import { resolveStart } from '../../lib/deep-link';
import { useItemCover } from './app/watch-item-safety';

// Only a sensitive timeline loads its cover's code; the embed's first paint sends none of it.
const SensitiveCover = lazy(() => import('../../features/viewing/components/sensitive-cover').then((module) => ({ default: module.SensitiveCover })));

const playable = (video: Video) => video.status === 'completed' || Boolean(video.hlsUrl);

function EmbedState({ id, title, message }: { id: string; title: string; message: string }) {
  return (
    <div className="player-state">
      <h1>{title}</h1>
      <p>{message}</p>
      <a className="button button--primary" href={`/watch/${encodeURIComponent(id)}`} target="_blank" rel="noopener noreferrer">
        Open in Timeliner
      </a>
    </div>
  );
}

/**
 * /embed/timeline/{id}: a published timeline's player for another site's iframe (the Sharing
 * tab's embed code, 800 x 600): a public one, or an unlisted one, which anyone holding its link may
 * watch, as a signed-out caller may read it (gateway README, "Signed-out callers"); a private or
 * draft one is unavailable. No app shell and no sign-in, and nothing that leads nowhere in a
 * frame (no back, no download): the title opens the timeline on this site in a new tab. The
 * gateway lets any site frame this page, and only it.
 */
function Embed({ id }: { id: string }) {
  const timeline = useTimeline(id);
  const videos = useVideos(id);
  const onLeaveVideo = useCallback((view: TimelineViewFigures) => recordView(id, view), [id]);
  // The same start points as the player's own links (`?item=3&t=42`); a bad one starts at the beginning.
  const [search] = useSearchParams();
  // Another site's visitor is signed out here: whatever is marked sensitive stays covered until Show.
  const itemCover = useItemCover(videos.data ?? [], false);

  if (timeline.isPending || (videos.isPending && !videos.isError)) {
    return (
      <div className="player-state">
        <Spinner label="Loading timeline..." />
      </div>
    );
  }
  // What a signed-out viewer may see, even when this browser holds a session of someone who may see more.
  if (timeline.isError || timeline.data.visibility === 'private' || timeline.data.status !== 'published') {
    return <EmbedState id={id} title="Timeline unavailable" message="This timeline is private, or no longer exists." />;
  }
  const list = (videos.data ?? []).filter(playable);
  const start = resolveStart(search, list);
  if (videos.isError || list.length === 0) {
    return <EmbedState id={id} title={timeline.data.title} message={videos.isError ? 'The videos could not be loaded.' : 'No videos in this timeline'} />;
  }
  const player = (
    <TimelinePlayer key={id} timeline={timeline.data} videos={list} embedded onLeaveVideo={onLeaveVideo} startAt={list[start.index]?.id ?? null} startTime={start.time} sensitiveCover={itemCover} />
  );
  return (
    <>
      <title>{`${timeline.data.title} · Timeliner`}</title>
      {timeline.data.sensitive ? (
        <Suspense fallback={<div className="sensitive-cover sensitive-cover--screen" aria-busy="true" />}>
          <SensitiveCover sensitive signedIn={false} preview={timeline.data.thumbnailUrl} className="sensitive-cover--screen">
            {player}
          </SensitiveCover>
        </Suspense>
      ) : (
        player
      )}
    </>
  );
}

export default function EmbedRoute() {
  const { id = '' } = useParams();
  return <Embed key={id} id={id} />;
}
