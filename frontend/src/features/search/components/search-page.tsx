import * as Tabs from '@radix-ui/react-tabs';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { CloseIcon, SearchIcon } from '../../../components/ui/icons';
import { LoadMore } from '../../../components/ui/load-more';
import { Spinner } from '../../../components/ui/spinner';
import { useClearSearchHistory } from '../api/clear-search-history';
import { usePopularTimelines } from '../api/get-popular-timelines';
import { useSearchHistory } from '../api/get-search-history';
import { useTrendingHashtags } from '../api/get-trending-hashtags';
import { useRemoveSearchHistoryEntry } from '../api/remove-search-history-entry';
import { type Hashtag, type SearchResult, type SearchTimeline, type SearchUser, useSearchAll, useSearchKind } from '../api/search';
import { queryTerms } from '../lib/highlight';
import { HashtagResult, RESULT_ATTRIBUTE, ResultList, ResultSection, type ResultContext, TimelineResult, UserResult } from './search-results';
import './search.css';

/** Spec 001, section 9: the box searches 300 ms after typing stops. */
export const SEARCH_DEBOUNCE_MS = 300;

/** Spec 001, section 2: the tabs and the no-result texts. */
export const SEARCH_TABS = [
  { value: 'all', label: 'All' },
  { value: 'timelines', label: 'Timelines' },
  { value: 'users', label: 'Users' },
  { value: 'trending', label: 'Trending' },
] as const;
export type SearchTab = (typeof SEARCH_TABS)[number]['value'];
export const NO_RESULTS = 'No results found';
export const NO_USERS = 'No users found';
export const NO_TIMELINES = 'No timelines found';

const tabOf = (value: string | null): SearchTab => SEARCH_TABS.find((tab) => tab.value === value)?.value ?? 'all';
const addressOf = (q: string, tab: SearchTab) => ({ ...(q ? { q } : {}), ...(tab !== 'all' ? { tab } : {}) });

const timelineKey = (timeline: SearchTimeline) => timeline.id;
const userKey = (user: SearchUser) => user.id;
const hashtagKey = (hashtag: Hashtag) => hashtag.name;

function Failed({ what, retry }: { what: string; retry: () => unknown }) {
  return (
    <div className="search-state" role="alert">
      <p>{what} could not be loaded.</p>
      <button type="button" className="button button--secondary button--sm" onClick={() => void retry()}>
        Try again
      </button>
    </div>
  );
}

const Empty = ({ children }: { children: ReactNode }) => (
  <p className="search-state" role="status">
    {children}
  </p>
);

/** Under an empty box: the person's recent searches, each to search again or remove. */
function RecentSearches({ search }: { search: (query: string) => void }) {
  const history = useSearchHistory();
  const clear = useClearSearchHistory();
  const remove = useRemoveSearchHistoryEntry();
  if (!history.data || history.data.length === 0) return null;
  return (
    <ResultSection
      title="Recent searches"
      action={
        <button type="button" className="button button--ghost button--sm" onClick={() => clear.mutate()} disabled={clear.isPending}>
          Clear all
        </button>
      }
    >
      <ul className="search-recent" aria-label="Recent searches">
        {history.data.map((entry) => (
          <li key={entry.id} className="search-recent__item">
            <button {...{ [RESULT_ATTRIBUTE]: '' }} type="button" className="search-recent__query" onClick={() => search(entry.query)}>
              <SearchIcon width={16} height={16} />
              {entry.query}
            </button>
            <button type="button" className="search-recent__remove" aria-label={`Remove ${entry.query} from recent searches`} onClick={() => remove.mutate(entry.id)}>
              <CloseIcon width={16} height={16} />
            </button>
          </li>
        ))}
      </ul>
    </ResultSection>
  );
}

function PopularTimelines({ context }: { context: ResultContext }) {
  const popular = usePopularTimelines();
  return (
    <ResultSection title="Popular timelines">
      {popular.isPending ? (
        <Spinner label="Loading popular timelines..." />
      ) : popular.isError ? (
        <Failed what="Popular timelines" retry={popular.refetch} />
      ) : popular.data.length === 0 ? (
        <Empty>No public timelines yet.</Empty>
      ) : (
        <ResultList items={popular.data} label="Popular timelines" keyOf={timelineKey} render={(timeline) => <TimelineResult timeline={timeline} context={context} />} />
      )}
    </ResultSection>
  );
}

function TrendingHashtags({ context }: { context: ResultContext }) {
  const trending = useTrendingHashtags();
  return (
    <ResultSection title="Trending hashtags">
      {trending.isPending ? (
        <Spinner label="Loading trending hashtags..." />
      ) : trending.isError ? (
        <Failed what="Trending hashtags" retry={trending.refetch} />
      ) : trending.data.length === 0 ? (
        <Empty>Nothing is trending right now.</Empty>
      ) : (
        <ResultList
          items={trending.data}
          label="Trending hashtags"
          keyOf={hashtagKey}
          render={(hashtag, i) => <HashtagResult hashtag={hashtag} context={context} rank={i + 1} />}
        />
      )}
    </ResultSection>
  );
}

/**
 * Under an empty box: recent searches, popular timelines and trending hashtags, shown together once
 * all three have answered, so no section pushes another down as it arrives; and rendered in the
 * background (a deferred value), in slices that leave the main thread free between them.
 */
function EmptyBox({ context, search }: { context: ResultContext; search: (query: string) => void }) {
  const loading = [useSearchHistory(), usePopularTimelines(), useTrendingHashtags()].some((query) => query.isLoading);
  const shown = useDeferredValue(!loading, false);
  if (!shown) return <Spinner label="Loading suggestions..." />;
  return (
    <>
      <RecentSearches search={search} />
      <PopularTimelines context={context} />
      <TrendingHashtags context={context} />
    </>
  );
}

/** All: a few of each kind, each with a way to see them all; popular and trending for an empty box. */
function AllResults({ context, showTab, search }: { context: ResultContext; showTab: (tab: SearchTab) => void; search: (query: string) => void }) {
  const results = useSearchAll(context.query, context.query !== '');
  if (!context.query) return <EmptyBox context={context} search={search} />;
  if (results.isPending) return <Spinner label="Searching..." />;
  if (results.isError) return <Failed what="Search results" retry={results.refetch} />;
  const { timelines, users, hashtags }: SearchResult = results.data;
  if (timelines.length + users.length + hashtags.length === 0) return <Empty>{NO_RESULTS}</Empty>;
  const seeAll = (tab: SearchTab, label: string) => (
    <button type="button" className="button button--ghost button--sm" onClick={() => showTab(tab)}>
      See all {label}
    </button>
  );
  return (
    <>
      {hashtags.length > 0 ? (
        <ResultSection title="Hashtags">
          <ul className="search-tags" aria-label="Hashtags">
            {hashtags.map((hashtag) => (
              <li key={hashtag.name}>
                <HashtagResult hashtag={hashtag} context={context} />
              </li>
            ))}
          </ul>
        </ResultSection>
      ) : null}
      {timelines.length > 0 ? (
        <ResultSection title="Timelines" action={seeAll('timelines', 'timelines')}>
          <ResultList items={timelines} label="Timelines" keyOf={timelineKey} render={(timeline) => <TimelineResult timeline={timeline} context={context} />} />
        </ResultSection>
      ) : null}
      {users.length > 0 ? (
        <ResultSection title="People" action={seeAll('users', 'people')}>
          <ResultList items={users} label="People" keyOf={userKey} render={(user) => <UserResult user={user} context={context} />} />
        </ResultSection>
      ) : null}
    </>
  );
}

type KindQuery<T> = UseInfiniteQueryResult<InfiniteData<{ items: T[]; nextCursor: string | null }>>;

/** One kind of result, scrolling on page after page. */
function PagedResults<T>({ list, label, empty, render }: { list: KindQuery<T>; label: string; empty: string; render: (items: T[]) => ReactNode }) {
  if (list.isPending) return <Spinner label="Searching..." />;
  if (list.isError) return <Failed what="Search results" retry={list.refetch} />;
  const items = list.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <Empty>{empty}</Empty>;
  return (
    <div aria-busy={list.isFetchingNextPage} aria-label={label}>
      {render(items)}
      <LoadMore
        className="search-more"
        hasNextPage={list.hasNextPage}
        isFetchingNextPage={list.isFetchingNextPage}
        isFetchNextPageError={list.isFetchNextPageError}
        fetchNextPage={list.fetchNextPage}
        loadingLabel={`Loading more ${label.toLowerCase()}...`}
      />
    </div>
  );
}

function TimelineResults({ context }: { context: ResultContext }) {
  const list = useSearchKind(context.query, 'timelines', context.query !== '');
  if (!context.query) return <PopularTimelines context={context} />;
  return (
    <PagedResults
      list={list}
      label="Timelines"
      empty={NO_TIMELINES}
      render={(items) => <ResultList items={items} label="Timelines" keyOf={timelineKey} render={(timeline) => <TimelineResult timeline={timeline} context={context} />} />}
    />
  );
}

function UserResults({ context }: { context: ResultContext }) {
  const list = useSearchKind(context.query, 'users', context.query !== '');
  if (!context.query) return <Empty>Find people by their name or @username.</Empty>;
  return (
    <PagedResults
      list={list}
      label="People"
      empty={NO_USERS}
      render={(items) => <ResultList items={items} label="People" keyOf={userKey} render={(user) => <UserResult user={user} context={context} />} />}
    />
  );
}

/**
 * The search screen (spec 001, section 2): a box that searches 300 ms after typing stops (the
 * address keeps the query and the tab, so Back and a shared link work), the tabs All, Timelines,
 * Users and Trending, popular timelines and trending hashtags for an empty box. Arrow keys move
 * from the box through the results and back; Escape returns to the box.
 */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  // Arriving from a click in the header's search box: typing goes on here.
  const focusSearch = Boolean((useLocation().state as { focusSearch?: boolean } | null)?.focusSearch);
  const urlQuery = params.get('q') ?? '';
  const tab = tabOf(params.get('tab'));
  // `synced` is the query the address last agreed with; `text` is what the box shows.
  const [draft, setDraft] = useState({ text: urlQuery, synced: urlQuery });
  const input = useRef<HTMLInputElement>(null);
  const page = useRef<HTMLDivElement>(null);

  // The address changed elsewhere (the header box, Back, a hashtag): the box follows it.
  let { text } = draft;
  if (draft.synced !== urlQuery) {
    text = urlQuery;
    setDraft({ text: urlQuery, synced: urlQuery });
  }

  // The address follows the box after a pause in typing.
  useEffect(() => {
    if (draft.text === draft.synced) return;
    const timer = window.setTimeout(() => {
      setDraft((current) => ({ ...current, synced: draft.text }));
      setParams(addressOf(draft.text, tab), { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [draft, setParams, tab]);

  const query = urlQuery.trim();
  const terms = useMemo(() => queryTerms(query), [query]);
  const search = (next: string) => {
    void navigate({ search: `?${new URLSearchParams(addressOf(next, tab)).toString()}` });
    input.current?.focus();
  };
  const context: ResultContext = { query, terms, openHashtag: (name) => void navigate(`/search?q=${encodeURIComponent(`#${name}`)}`) };
  const showTab = (next: SearchTab) => setParams(addressOf(urlQuery, next));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!['ArrowDown', 'ArrowUp', 'Escape'].includes(event.key) || !page.current || !input.current) return;
    const results = [...page.current.querySelectorAll<HTMLElement>(`[${RESULT_ATTRIBUTE}]`)];
    const at = results.indexOf(document.activeElement as HTMLElement);
    if (at < 0 && document.activeElement !== input.current) return;
    if (event.key === 'Escape') {
      if (at >= 0) input.current.focus();
      return;
    }
    event.preventDefault();
    if (event.key === 'ArrowDown') (results[at + 1] ?? results[at])?.focus();
    else if (at <= 0) input.current.focus();
    else results[at - 1]?.focus();
  };

  return (
    <div className="page search-page" ref={page} onKeyDown={onKeyDown}>
      <title>{query ? `${query} · Search · Timeliner` : 'Search · Timeliner'}</title>
      <h1 className="page__title">Search</h1>
      <div className="header-search search-page__box" role="search" aria-label="Search page">
        <SearchIcon className="header-search__icon" width={18} height={18} />
        <input
          ref={input}
          className="header-search__input"
          type="search"
          aria-label="Search timelines, people and hashtags"
          placeholder="Search timelines, people and hashtags"
          enterKeyHint="search"
          value={text}
          autoFocus={focusSearch}
          onChange={(event) => setDraft((current) => ({ ...current, text: event.target.value }))}
        />
      </div>
      <Tabs.Root className="search-tabs" value={tab} onValueChange={(value) => showTab(tabOf(value))}>
        <Tabs.List className="search-tabs__list" aria-label="Search results">
          {SEARCH_TABS.map(({ value, label }) => (
            <Tabs.Trigger key={value} className="search-tabs__trigger" value={value}>
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content className="search-tabs__panel" value="all">
          <AllResults context={context} showTab={showTab} search={search} />
        </Tabs.Content>
        <Tabs.Content className="search-tabs__panel" value="timelines">
          <TimelineResults context={context} />
        </Tabs.Content>
        <Tabs.Content className="search-tabs__panel" value="users">
          <UserResults context={context} />
        </Tabs.Content>
        <Tabs.Content className="search-tabs__panel" value="trending">
          <TrendingHashtags context={context} />
          <PopularTimelines context={context} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
