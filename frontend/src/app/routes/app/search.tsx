import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { SearchIcon } from '../../../components/ui/icons';

export const SEARCH_DEBOUNCE_MS = 300;

export default function SearchRoute() {
  const [params, setParams] = useSearchParams();
  // Arriving from a click in the header's search box: typing goes on here.
  const focusSearch = Boolean((useLocation().state as { focusSearch?: boolean } | null)?.focusSearch);
  const urlQuery = params.get('q') ?? '';
  // `synced` is the query the address last agreed with; `text` is what the box shows.
  const [draft, setDraft] = useState({ text: urlQuery, synced: urlQuery });

  // The address changed elsewhere (the header box, Back): the box follows it.
  let { text } = draft;
  if (draft.synced !== urlQuery) {
    text = urlQuery;
    setDraft({ text: urlQuery, synced: urlQuery });
  }

  // The address follows the box after a pause in typing (spec 001, section 9: 300 ms).
  useEffect(() => {
    if (draft.text === draft.synced) return;
    const timer = window.setTimeout(() => {
      setDraft((current) => ({ ...current, synced: draft.text }));
      setParams(draft.text ? { q: draft.text } : {}, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [draft, setParams]);

  return (
    <div className="page">
      <title>Search · Timeliner</title>
      <h1 className="page__title">Search</h1>
      <div className="header-search search-page__box" role="search" aria-label="Search page">
        <SearchIcon className="header-search__icon" width={18} height={18} />
        <input
          className="header-search__input"
          type="search"
          aria-label="Search timelines, people and hashtags"
          placeholder="Search timelines, people and hashtags"
          value={text}
          autoFocus={focusSearch}
          onChange={(event) => setDraft((current) => ({ ...current, text: event.target.value }))}
        />
      </div>
      <p className="page__subtitle" role="status">
        Search results aren&apos;t available yet.
      </p>
    </div>
  );
}
