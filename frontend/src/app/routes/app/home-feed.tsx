import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useUser } from '../../../lib/current-user';
import { useFeedCache } from '../../../features/feed/api/feed-cache';
import { FEED_TEXT, HomeFeed } from '../../../features/feed/components/home-feed';
import { LeftPanels, RightPanels, type ActivityTotals } from '../../../features/feed/components/home-sidebars';
import type { FeedTimeline } from '../../../features/feed/api/types';
import type { Post, PostStore } from '../../../features/posts/api/types';
import { PostCard } from '../../../features/posts/components/post-card';
import { PostComposer } from '../../../features/posts/components/post-composer';
import { SensitiveCoverOnDemand } from '../../../features/viewing/components/sensitive-cover-on-demand';
import { useTimelines } from '../../../features/timelines/api/get-timelines';
import { getProfileQueryOptions, type Profile } from '../../../features/users/api/get-profile';
import { useAfterFirstRender } from '../../../lib/after-first-render';
import { TimelineCard } from '../../home-feed/timeline-card';
import '../../../features/feed/components/feed.css';

/**
 * Your Activity from the person's own profile (timelines made, views they drew, people followed).
 * Not from /api/my-timelines: spec 000 fetches that list only while the picker is open.
 */
function activityTotals(profile: Profile | undefined, followingCount: number | undefined): ActivityTotals {
  return {
    timelinesCreated: profile?.timelinesCount ?? null,
    totalViews: profile?.totalViews ?? null,
    following: profile?.followingCount ?? followingCount ?? null,
  };
}

/** The home feed (spec 000, section 2): composer and feed in the centre, panels either side. */
export default function HomeRoute() {
  const me = useUser();
  const user = me.data;
  const timelines = useTimelines({ enabled: Boolean(user) });
  const profile = useQuery({ ...getProfileQueryOptions(user?.id ?? ''), enabled: Boolean(user) });
  const feedCache = useFeedCache();
  // Only one post is in edit mode at a time (spec 000, section 4).
  const [editingPostId, setEditingPostId] = useState<string | null>(null);
  // The side panels fill in just after the first screen, in a render of their own: the first
  // commit holds the composer and the feed only (on a phone the panels are below them). Their
  // columns are there from the start, so nothing moves on a wide screen.
  const panels = useAfterFirstRender();
  const postStore = useMemo<PostStore>(
    () => ({ patchPost: feedCache.patchPost, removePost: (id) => feedCache.remove('post', id) }),
    [feedCache],
  );

  if (!user) {
    return (
      <>
        <title>Home · Timeliner</title>
        <p className="feed-state">{me.isPending ? FEED_TEXT.loading : FEED_TEXT.signedOut}</p>
      </>
    );
  }

  const renderPost = (post: Post) => (
    <PostCard
      post={post}
      viewerId={user.id}
      store={postStore}
      editing={editingPostId === post.id}
      onEditingChange={(editing) => setEditingPostId(editing ? post.id : null)}
      Cover={SensitiveCoverOnDemand}
    />
  );

  const renderTimeline = (timeline: FeedTimeline) => <TimelineCard timeline={timeline} viewerId={user.id} />;

  return (
    <>
      <title>Home · Timeliner</title>
      <h1 className="visually-hidden">Home</h1>
      <div className="home">
        <div className="home-column home-column--left">
          {panels ? <LeftPanels trending={timelines.data} activity={activityTotals(profile.data, user.followingCount)} /> : null}
        </div>
        <div className="home-centre">
          <PostComposer user={user} onCreated={feedCache.prependPost} />
          <HomeFeed renderPost={renderPost} renderTimeline={renderTimeline} />
        </div>
        <div className="home-column home-column--right">{panels ? <RightPanels timelines={timelines.data} viewerId={user.id} /> : null}</div>
      </div>
    </>
  );
}
