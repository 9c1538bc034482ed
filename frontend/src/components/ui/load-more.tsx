import { useEffect, useRef } from 'react';

export interface LoadMoreProps {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
  /** Announced while the next page loads. */
  loadingLabel?: string;
  className?: string;
}

/**
 * The end of an infinitely scrolling list: asks for the next page when it comes within 600 px of
 * the viewport, says so while it loads, and offers a Load more button when a page failed (or the
 * browser cannot watch the scroll position).
 */
export function LoadMore({ hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, loadingLabel = 'Loading more...', className = 'load-more' }: LoadMoreProps) {
  const sentinel = useRef<HTMLDivElement>(null);
  const load = useRef(fetchNextPage);
  const watching = hasNextPage && !isFetchingNextPage && !isFetchNextPageError;
  const canObserve = typeof IntersectionObserver !== 'undefined';

  useEffect(() => {
    load.current = fetchNextPage;
  }, [fetchNextPage]);

  useEffect(() => {
    const element = sentinel.current;
    if (!element || !watching || !canObserve) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void load.current();
    }, { rootMargin: '600px 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [watching, canObserve]);

  if (!hasNextPage) return null;
  return (
    <div className={className}>
      <div ref={sentinel} aria-hidden="true" />
      {isFetchingNextPage ? <p role="status">{loadingLabel}</p> : null}
      {!isFetchingNextPage && (isFetchNextPageError || !canObserve) ? (
        <button type="button" className="button button--secondary button--sm" onClick={() => void fetchNextPage()}>
          Load more
        </button>
      ) : null}
    </div>
  );
}
