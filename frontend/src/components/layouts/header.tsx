import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../ui/logo';
import { SettingsIcon } from '../ui/icons';
import { HeaderSearch } from './header-search';
import { UserMenu, type MenuUser } from './user-menu';

export interface HeaderProps {
  user: MenuUser;
  onLogout: () => void;
  /** The notification bell, supplied by the notifications feature. */
  notifications: ReactNode;
}

export function Header({ user, onLogout, notifications }: HeaderProps) {
  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to="/" className="app-header__logo" aria-label="Timeliner home">
          <Logo compact />
        </Link>
        <HeaderSearch />
        <div className="app-header__actions">
          {notifications}
          <Link to="/settings" className="icon-button app-header__settings" aria-label="Settings">
            <SettingsIcon />
          </Link>
          <UserMenu user={user} onLogout={onLogout} />
        </div>
      </div>
    </header>
  );
}
