import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { HomeIcon, PlusIcon, SearchIcon, StudioIcon, UserIcon } from '../ui/icons';

interface NavItemProps {
  to: string;
  label: string;
  icon: ReactNode;
  active: boolean;
}

function NavItem({ to, label, icon, active }: NavItemProps) {
  return (
    <li className="bottom-nav__cell">
      <Link to={to} className="bottom-nav__item" aria-current={active ? 'page' : undefined}>
        {icon}
        <span className="bottom-nav__label">{label}</span>
      </Link>
    </li>
  );
}

/**
 * The mobile bottom navigation (spec 000, section 2). CSS hides it from 768 px; the layout does
 * not render it on /watch/.
 */
export function BottomNav({ userId, onCreate }: { userId: string; onCreate: () => void }) {
  const { pathname } = useLocation();
  const profilePath = `/profile/${userId}`;
  return (
    <nav className="bottom-nav" aria-label="Main">
      <ul className="bottom-nav__list">
        <NavItem to="/" label="Home" icon={<HomeIcon />} active={pathname === '/'} />
        <NavItem to="/search" label="Search" icon={<SearchIcon />} active={pathname === '/search'} />
        <li className="bottom-nav__cell">
          <button type="button" className="bottom-nav__item bottom-nav__create" onClick={onCreate}>
            <span className="bottom-nav__create-icon">
              <PlusIcon />
            </span>
            <span className="bottom-nav__label">Create</span>
          </button>
        </li>
        <NavItem
          to="/studio"
          label="Studio"
          icon={<StudioIcon />}
          active={pathname === '/studio' || pathname.startsWith('/timeline/')}
        />
        <NavItem to={profilePath} label="Profile" icon={<UserIcon />} active={pathname === profilePath} />
      </ul>
    </nav>
  );
}
