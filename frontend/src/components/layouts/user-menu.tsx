import { useState, type ComponentType, type KeyboardEvent } from 'react';
import { Avatar } from '../ui/avatar';
import type { StaffOnlyComponent, UserMenuDropdownProps } from './user-menu-dropdown';

export interface MenuUser {
  id: string;
  displayName: string;
  email: string;
  avatar: string | null;
}

/**
 * What the trigger shows. Named by its content, not an aria-label: the name starts with the
 * visible initials ("AM account menu for Alice Martin"), so people who speak to their device can
 * say what they see (WCAG 2.5.3).
 */
export function UserMenuTriggerContent({ user }: { user: MenuUser }) {
  return (
    <>
      <Avatar name={user.displayName} src={user.avatar} size="sm" />
      <span className="visually-hidden">{user.avatar ? `Account menu for ${user.displayName}` : ` account menu for ${user.displayName}`}</span>
    </>
  );
}

// The menu's code (Radix's menu and its positioning under it) is not needed to draw the header:
// it is fetched when the pointer or the focus comes to the trigger, and used from the first press.
let dropdown: Promise<ComponentType<UserMenuDropdownProps>> | undefined;
function loadDropdown() {
  dropdown ??= import('./user-menu-dropdown').then((module) => module.UserMenuDropdown);
  dropdown.catch(() => {
    dropdown = undefined; // Offline for a moment: the next press tries again.
  });
  return dropdown;
}

/** The header's user menu (spec 000, section 2); see UserMenuDropdown for the menu itself. */
export function UserMenu({ user, onLogout, StaffOnly }: { user: MenuUser; onLogout: () => void; StaffOnly?: StaffOnlyComponent }) {
  const [Dropdown, setDropdown] = useState<ComponentType<UserMenuDropdownProps> | null>(null);
  if (Dropdown) return <Dropdown user={user} onLogout={onLogout} defaultOpen {...(StaffOnly ? { StaffOnly } : {})} />;

  // The real trigger replaces this one in the same commit that opens the menu, which takes the focus.
  const open = () => {
    loadDropdown().then(
      (component) => setDropdown(() => component),
      (error: unknown) => console.error('The user menu could not be loaded', error),
    );
  };
  const preload = () => void loadDropdown().catch(() => undefined);
  return (
    <button
      type="button"
      className="user-menu__trigger"
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={preload}
      onPointerDown={preload}
      onFocus={preload}
      onClick={open}
      onKeyDown={(event: KeyboardEvent) => {
        // As the menu's own trigger: the down arrow opens it too.
        if (event.key !== 'ArrowDown') return;
        event.preventDefault();
        open();
      }}
    >
      <UserMenuTriggerContent user={user} />
    </button>
  );
}
