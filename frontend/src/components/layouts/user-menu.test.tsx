import { describe, expect, it, jest } from '@jest/globals';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';

// The menu's own module, counted each time something asks for it.
const dropdown = await import('./user-menu-dropdown');
let dropdownLoads = 0;
jest.unstable_mockModule('./user-menu-dropdown', () => {
  dropdownLoads += 1;
  return dropdown;
});
const { UserMenu } = await import('./user-menu');

const ada = { id: 'u1', displayName: 'Ada Lovelace', email: 'ada@example.com', avatar: null };

function renderMenu(onLogout = jest.fn()) {
  render(
    <MemoryRouter>
      <UserMenu user={ada} onLogout={onLogout} />
    </MemoryRouter>,
  );
  return onLogout;
}

describe('UserMenu', () => {
  it('draws its trigger without the menu’s code, which comes with the first press and opens the menu', async () => {
    const onLogout = renderMenu();
    // The initials show once the avatar knows there is no picture.
    const trigger = await screen.findByRole('button', { name: 'AL account menu for Ada Lovelace' });
    expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(dropdownLoads).toBe(0);

    const user = userEvent.setup();
    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(dropdownLoads).toBe(1);
    expect(within(menu).getByText('ada@example.com')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'AL account menu for Ada Lovelace' })).toHaveAttribute('aria-expanded', 'true');
    await user.click(within(menu).getByRole('menuitem', { name: 'Log out' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('opens from the keyboard with the down arrow, and gives the focus back to its trigger on Escape', async () => {
    renderMenu();
    const user = userEvent.setup();
    (await screen.findByRole('button', { name: 'AL account menu for Ada Lovelace' })).focus();
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(await screen.findByRole('button', { name: 'AL account menu for Ada Lovelace' })).toHaveFocus();
  });
});
