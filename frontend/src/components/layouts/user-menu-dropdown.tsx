import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { type ComponentType, type ReactNode, Suspense } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../ui/avatar';
import { BookmarkIcon, CheckBadgeIcon, CollectionsIcon, DashboardIcon, LogOutIcon, SettingsIcon, StudioIcon, UserIcon } from '../ui/icons';
import { UserMenuTriggerContent, type MenuUser } from './user-menu';

export interface UserMenuDropdownProps {
  user: MenuUser;
  onLogout: () => void;
  /** Opened by a press on the placeholder trigger that stood in while this code loaded. */
  defaultOpen?: boolean;
  /** Renders its children for moderators and admins only: the moderation desk's entry. */
  StaffOnly?: StaffOnlyComponent;
}

/** Shows its children only to staff (moderators, admins); asked when the menu opens. */
export type StaffOnlyComponent = ComponentType<{ children: ReactNode }>;

/** The user menu of spec 000 section 2: who is signed in, then where to go, then Log out. */
export function UserMenuDropdown({ user, onLogout, defaultOpen = false, StaffOnly }: UserMenuDropdownProps) {
  return (
    // Not modal: a modal menu locks page scroll by injecting a <style> element, which a strict CSP blocks.
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className="user-menu__trigger">
        <UserMenuTriggerContent user={user} />
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
        {StaffOnly ? (
          <Suspense fallback={null}>
            <StaffOnly>
              <DropdownMenu.Item className="menu__item" asChild>
                <Link to="/moderation">
                  <CheckBadgeIcon width={18} height={18} /> Moderation
                </Link>
              </DropdownMenu.Item>
            </StaffOnly>
          </Suspense>
        ) : null}
        <DropdownMenu.Separator className="menu__separator" />
        <DropdownMenu.Item className="menu__item" onSelect={onLogout}>
          <LogOutIcon width={18} height={18} /> Log out
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

export default UserMenuDropdown;
