import * as Tabs from '@radix-ui/react-tabs';
import { Fragment, startTransition, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useAfterFirstRender } from '../../../lib/after-first-render';
import { useFeed } from '../api/get-feed';
import type { FeedItem, FeedTab, FeedTimeline, Post } from '../api/types';
import { useDismissedPromotions } from '../hooks/use-dismissed-promotions';
import { adBefore, PROMOTIONS } from '../lib/ads';
import { FeedAd } from './feed-ad';
import './feed.css';

export const FEED_TEXT = {
  loading: 'Loading feed...',
  empty: 'No posts or timelines yet. Create your first timeline or share a post!',
  /** The Following tab holds other people's things only. */
  emptyFollowing: 'Nothing here yet. Follow people to see their posts and timelines in this tab.',
  signedOut: 'Please log in to see your feed',
} as const;

const TABS: { value: FeedTab; label: string }[] = [
  { value: 'for-you', label: 'For you' },
  { value: 'following', label: 'Following' },
];

export interface HomeFeedProps {
  /** A text post's card (the posts feature's, composed by the page). */
  renderPost: (post: Post) => ReactNode;
  /** A timeline's card (its comments, sharing and saving come from other features: composed by the page). */
  renderTimeline: (timeline: FeedTimeline) => ReactNode;
}

/** Asks for the next page when the end of the list comes near. */
function useLoadMoreSentinel(load: () => void, active: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  }, [load]);
  useEffect(() => {
    const sentinel = ref.current;
    if (!sentinel || !active || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadRef.current();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [active]);
  return ref;
}

type Promotions = ReturnType<typeof useDismissedPromotions>;

/** Cards rendered in the first pass; a phone shows one or two, a desktop three. */
const FIRST_RENDER_ITEMS = 3;

type FeedItemsProps = HomeFeedProps & {
  tab: FeedTab;
  promotions: Promotions;
  pages: { items: FeedItem[] }[];
  busy: boolean;
  /** Whether a next page exists, and the call that asks for it when the end comes near. */
  hasMore: boolean;
  loadMore: () => void;
};

/**
 * The feed's cards. The first page arrives with about twenty: the first few render at once, the
 * rest in a transition React interrupts whenever the browser has something to do, so a phone is
 * never held for the whole page's rendering in one task. Later changes (a like, a new page) render
 * as usual.
 */
function FeedItems({ pages, tab, renderPost, renderTimeline, promotions, busy, hasMore, loadMore }: FeedItemsProps) {
  const items = useMemo(() => pages.flatMap((page) => page.items), [pages]);
  const [firstPass, setFirstPass] = useState(true);
  useEffect(() => startTransition(() => setFirstPass(false)), []);
  const complete = !firstPass || items.length <= FIRST_RENDER_ITEMS;
  const shown = complete ? items : items.slice(0, FIRST_RENDER_ITEMS);
  // Watched only once every card of the page is there: the first pass's end is not the page's.
  const sentinel = useLoadMoreSentinel(loadMore, hasMore && complete);
  if (items.length === 0) return <p className="feed-state">{tab === 'following' ? FEED_TEXT.emptyFollowing : FEED_TEXT.empty}</p>;

  const renderItem = (item: FeedItem) => {
    if (item.type === 'post' && item.post) return renderPost(item.post);
    if (item.type === 'timeline' && item.timeline) return renderTimeline(item.timeline);
    return null;
  };

  return (
    <>
      <div role="feed" aria-label={TABS.find((option) => option.value === tab)?.label} aria-busy={busy || !complete} className="feed-list">
        {shown.map((item, index) => {
          const kind = adBefore(index);
          const showAd = kind !== null && !promotions.isDismissed(PROMOTIONS[kind].id);
          return (
            <Fragment key={`${item.type}-${item.id}`}>
              {showAd ? <FeedAd kind={kind} onDismiss={promotions.dismiss} /> : null}
              {renderItem(item)}
            </Fragment>
          );
        })}
      </div>
      <div ref={sentinel} className="feed-sentinel" aria-hidden="true" />
    </>
  );
}

function FeedList({ tab, renderPost, renderTimeline, promotions }: HomeFeedProps & { tab: FeedTab; promotions: Promotions }) {
  const feed = useFeed(tab);
  const canLoadMore = feed.hasNextPage && !feed.isFetchingNextPage && !feed.isFetchNextPageError;
  const loadMore = () => {
    if (canLoadMore) void feed.fetchNextPage();
  };

  if (feed.isPending) {
    return (
      <p className="feed-state" role="status">
        {FEED_TEXT.loading}
      </p>
    );
  }
  if (feed.isError) {
    return (
      <div className="feed-state" role="alert">
        <p>Your feed could not be loaded.</p>
        <button type="button" className="button button--secondary button--sm" onClick={() => void feed.refetch()}>
          Try again
        </button>
      </div>
    );
  }

  return (
    <>
      <FeedItems
        pages={feed.data.pages}
        tab={tab}
        renderTimeline={renderTimeline}
        renderPost={renderPost}
        promotions={promotions}
        busy={feed.isFetchingNextPage}
        hasMore={feed.hasNextPage}
        loadMore={loadMore}
      />
      {feed.isFetchingNextPage ? (
        <p className="feed-state" role="status">
          Loading more...
        </p>
      ) : null}
      {feed.isFetchNextPageError || (feed.hasNextPage && typeof IntersectionObserver === 'undefined') ? (
        <div className="feed-state">
          <button type="button" className="button button--secondary button--sm" onClick={() => void feed.fetchNextPage()}>
            Load more
          </button>
        </div>
      ) : null}
    </>
  );
}

/**
 * The centre column: a banner, the For you / Following tabs, and the feed with infinite scroll.
 * The cards come in a render of their own just after the column's first one, so the screen's
 * first paint (the banner and the tabs, on a phone nearly all of what is on show) waits for no
 * card: the list's panel is empty and busy for that one frame.
 */
export function HomeFeed({ renderPost, renderTimeline }: HomeFeedProps) {
  const [tab, setTab] = useState<FeedTab>('for-you');
  const promotions = useDismissedPromotions();
  const listShown = useAfterFirstRender();
  return (
    <section className="home-feed" aria-label="Feed">
      {promotions.isDismissed(PROMOTIONS.banner.id) ? null : <FeedAd kind="banner" onDismiss={promotions.dismiss} />}
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as FeedTab)}>
        <Tabs.List className="feed-tabs" aria-label="Feed">
          {TABS.map((option) => (
            <Tabs.Trigger key={option.value} value={option.value} className="feed-tabs__tab">
              {option.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TABS.map((option) => (
          <Tabs.Content key={option.value} value={option.value} className="feed-tabs__panel">
            {tab !== option.value ? null : listShown ? (
              <FeedList tab={option.value} renderPost={renderPost} renderTimeline={renderTimeline} promotions={promotions} />
            ) : (
              <div role="feed" aria-label={option.label} aria-busy="true" className="feed-list" />
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  );
}
