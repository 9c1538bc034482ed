import { useState, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SearchIcon } from '../ui/icons';

/**
 * The header search box (spec 000, section 2): a click opens /search; Enter with text opens
 * /search?q=<encoded text>.
 */
export function HeaderSearch() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [text, setText] = useState('');

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    const query = text.trim();
    if (!query) return;
    event.preventDefault();
    navigate(`/search?q=${encodeURIComponent(query)}`);
  };

  return (
    <div className="header-search" role="search" aria-label="Site">
      <SearchIcon className="header-search__icon" width={18} height={18} />
      <input
        className="header-search__input"
        type="search"
        aria-label="Search timelines and people"
        placeholder="Search"
        value={text}
        enterKeyHint="search"
        onChange={(event) => setText(event.target.value)}
        onClick={() => {
          // The search page's own box then takes the focus (this one is not shown there).
          if (pathname !== '/search') navigate('/search', { state: { focusSearch: true } });
        }}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
