import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Logo } from '../ui/logo';
import { PlusIcon, SettingsIcon } from '../ui/icons';
import { HeaderSearch } from './header-search';
import { UserMenu, type MenuUser } from './user-menu';
import type { StaffOnlyComponent } from './user-menu-dropdown';

export interface HeaderProps {
  user: MenuUser;
  onLogout: () => void;
  /** The notification bell, supplied by the notifications feature. */
  notifications: ReactNode;
  /** Opens the timeline picker: the desktop's way in (phones have the bottom navigation's Create). */
  onCreate: () => void;
  /** Shows the account menu's Moderation entry to staff only, supplied by the moderation feature. */
  StaffOnly?: StaffOnlyComponent;
}

export function Header({ user, onLogout, notifications, onCreate, StaffOnly }: HeaderProps) {
  const { pathname } = useLocation();
  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to="/" className="app-header__logo" aria-label="Timeliner home">
          <Logo compact />
        </Link>
        {/* /search has its own search box: one is enough there. */}
        {pathname === '/search' ? <div className="app-header__spacer" /> : <HeaderSearch />}
        <div className="app-header__actions">
          <button type="button" className="button button--primary button--sm app-header__create" onClick={onCreate}>
            <PlusIcon width={18} height={18} /> Add videos
          </button>
          {notifications}
          <Link to="/settings" className="icon-button app-header__settings" aria-label="Settings">
            <SettingsIcon />
          </Link>
          <UserMenu user={user} onLogout={onLogout} {...(StaffOnly ? { StaffOnly } : {})} />
        </div>
      </div>
    </header>
  );
}
