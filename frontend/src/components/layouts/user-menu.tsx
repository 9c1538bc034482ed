import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router';
import { Avatar } from '../ui/avatar';
import { BookmarkIcon, CollectionsIcon, DashboardIcon, LogOutIcon, SettingsIcon, StudioIcon, UserIcon } from '../ui/icons';

export interface MenuUser {
  id: string;
  displayName: string;
  email: string;
  avatar: string | null;
}

/** The user menu of spec 000 section 2: who is signed in, then where to go, then Log out. */
export function UserMenu({ user, onLogout }: { user: MenuUser; onLogout: () => void }) {
  return (
    // Not modal: a modal menu locks page scroll by injecting a <style> element, which a strict CSP blocks.
    <DropdownMenu.Root modal={false}>
      {/* Named by its content, not an aria-label: the name starts with the visible initials
          ("AM account menu for Alice Martin"), so people who speak to their device can say what
          they see (WCAG 2.5.3). */}
      <DropdownMenu.Trigger className="user-menu__trigger">
        <Avatar name={user.displayName} src={user.avatar} size="sm" />
        <span className="visually-hidden">{user.avatar ? `Account menu for ${user.displayName}` : ` account menu for ${user.displayName}`}</span>
      </DropdownMenu.Trigger>
      {/* Not portalled to <body>: rendered here, the open menu stays inside the header's banner
          landmark like everything else on the page. */}
      <DropdownMenu.Content className="menu" align="end" sideOffset={8} collisionPadding={8}>
        <DropdownMenu.Label className="user-menu__who">
          <Avatar name={user.displayName} src={user.avatar} size="md" />
          <span className="user-menu__names">
            <span className="user-menu__name">{user.displayName}</span>
            <span className="user-menu__email">{user.email}</span>
          </span>
        </DropdownMenu.Label>
        <DropdownMenu.Separator className="menu__separator" />
        <DropdownMenu.Item className="menu__item" asChild>
          <Link to="/studio">
            <StudioIcon width={18} height={18} /> Creator Studio
          </Link>
        </DropdownMenu.Item>
        <DropdownMenu.Item className="menu__item" asChild>
          <Link to="/dashboard">
            <DashboardIcon width={18} height={18} /> Dashboard
          </Link>
        </DropdownMenu.Item>
        <DropdownMenu.Item className="menu__item" asChild>
          <Link to={`/profile/${user.id}`}>
            <UserIcon width={18} height={18} /> Profile
          </Link>
        </DropdownMenu.Item>
        <DropdownMenu.Item className="menu__item" asChild>
          <Link to="/collections">
            <CollectionsIcon width={18} height={18} /> Collections
          </Link>
        </DropdownMenu.Item>
        <DropdownMenu.Item className="menu__item" asChild>
          <Link to="/saved">
            <BookmarkIcon width={18} height={18} /> Saved
          </Link>
        </DropdownMenu.Item>
        <DropdownMenu.Item className="menu__item" asChild>
          <Link to="/settings">
            <SettingsIcon width={18} height={18} /> Settings
          </Link>
        </DropdownMenu.Item>
        <DropdownMenu.Separator className="menu__separator" />
        <DropdownMenu.Item className="menu__item" onSelect={onLogout}>
          <LogOutIcon width={18} height={18} /> Log out
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
