import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/avatar';
import { BookmarkIcon } from '../../../components/ui/icons';
import { PageState } from '../../../components/ui/page-state';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatRelativeTime } from '../../../lib/format';
import { useBookmarks, type Bookmark } from '../api/get-bookmarks';
import { useRemoveBookmark } from '../api/remove-bookmark';
import { CollectionTimelineCard } from './collection-timeline-card';
import './collections.css';

/** Calls `load` when the returned element nears the viewport (infinite scroll). */
function useLoadMoreSentinel(load: () => void, active: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  }, [load]);
  useEffect(() => {
    const sentinel = ref.current;
    if (!sentinel || !active || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadRef.current();
    }, { rootMargin: '600px 0px' });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [active]);
  return ref;
}

function SavedItem({ item, onRemove }: { item: Bookmark; onRemove: () => void }) {
  const removeButton = (name: string) => (
    <button type="button" className="button button--ghost button--sm" onClick={onRemove} aria-label={`Remove ${name} from Saved`}>
      Unsave
    </button>
  );
  if (item.type === 'timeline' && item.timeline) {
    const timeline = item.timeline;
    return (
      <div className="saved-item">
        <p className="saved-item__kind">
          Timeline · saved <time dateTime={item.bookmarkedAt}>{formatRelativeTime(item.bookmarkedAt)}</time>
        </p>
        <CollectionTimelineCard timeline={timeline} />
        <div className="saved-item__actions">{removeButton(timeline.title)}</div>
      </div>
    );
  }
  if (item.type === 'post' && item.post) {
    const post = item.post;
    const author = post.user?.displayName || post.user?.username || 'Unknown User';
    return (
      <div className="saved-item">
        <p className="saved-item__kind">
          Post · saved <time dateTime={item.bookmarkedAt}>{formatRelativeTime(item.bookmarkedAt)}</time>
        </p>
        <article className="card saved-post" aria-label={`Post by ${author}`}>
          <header className="saved-post__header">
            <Avatar name={author} src={post.user?.avatar ?? null} size="sm" />
            <Link to={`/profile/${encodeURIComponent(post.userId)}`} className="saved-post__author">
              {author}
            </Link>
            <time className="saved-post__time" dateTime={post.createdAt}>
              {formatRelativeTime(post.createdAt)}
            </time>
          </header>
          <p className="saved-post__content">{post.content}</p>
        </article>
        <div className="saved-item__actions">{removeButton(`the post by ${author}`)}</div>
      </div>
    );
  }
  return null;
}

/** Saved: the posts and timelines the caller bookmarked, newest first, with infinite scroll. */
export function SavedPage() {
  const saved = useBookmarks();
  const remove = useRemoveBookmark();
  const canLoadMore = saved.hasNextPage && !saved.isFetchingNextPage && !saved.isFetchNextPageError;
  const sentinel = useLoadMoreSentinel(() => {
    if (canLoadMore) void saved.fetchNextPage();
  }, saved.isSuccess && saved.hasNextPage);
  const items = saved.data?.pages.flatMap((page) => page.items) ?? [];

  let body;
  if (saved.isPending) {
    body = <Spinner label="Loading saved items..." />;
  } else if (saved.isError) {
    body = (
      <PageState
        as="h2"
        title="Couldn't load your saved items"
        actions={
          <button type="button" className="button button--primary" onClick={() => void saved.refetch()}>
            Try again
          </button>
        }
      >
        <p>{errorMessage(saved.error, 'Please check your connection and try again.')}</p>
      </PageState>
    );
  } else if (items.length === 0) {
    body = (
      <PageState as="h2" title="Nothing saved yet" icon={<BookmarkIcon width={32} height={32} />}>
        <p>Posts and timelines you bookmark appear here.</p>
      </PageState>
    );
  } else {
    body = (
      <>
        <ul className="saved-list" aria-label="Saved posts and timelines">
          {items.map((item) => (
            <li key={`${item.type}:${item.id}`}>
              <SavedItem
                item={item}
                onRemove={() =>
                  remove.mutate(
                    { type: item.type, id: item.id },
                    { onError: (error) => toast({ title: 'Could not unsave', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }) },
                  )
                }
              />
            </li>
          ))}
        </ul>
        <div ref={sentinel} aria-hidden="true" />
        {saved.isFetchingNextPage ? (
          <p className="collection-more" role="status">
            Loading more...
          </p>
        ) : null}
        {saved.isFetchNextPageError || (saved.hasNextPage && !saved.isFetchingNextPage && typeof IntersectionObserver === 'undefined') ? (
          <div className="collection-more">
            <button type="button" className="button button--secondary button--sm" onClick={() => void saved.fetchNextPage()}>
              Load more
            </button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className="page">
      <title>Saved · Timeliner</title>
      <div className="page__header">
        <div>
          <h1 className="page__title">Saved</h1>
          <p className="page__subtitle">Posts and timelines you bookmarked, newest first.</p>
        </div>
      </div>
      {body}
    </div>
  );
}
