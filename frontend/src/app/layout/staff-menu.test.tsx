import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '../../testing/api-mocks';
import { jsonResponse, renderApp } from '../../testing/test-utils';

const openMenu = async () => {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'AL account menu for Ada Lovelace' }));
  return screen.findByRole('menu');
};

/** Issue 28 item 5: the account menu leads staff to the moderation desk, and nobody else. */
describe('the account menu for staff', () => {
  it.each(['moderator', 'admin'])('has a Moderation entry for a %s, asked only once the menu opens', async (role) => {
    const { requests } = mockApi({ 'GET /api/moderation/role': jsonResponse(200, { role }) });
    renderApp('/settings');
    await screen.findByRole('button', { name: 'AL account menu for Ada Lovelace' });
    expect(requests.some((r) => r.url.endsWith('/api/moderation/role'))).toBe(false);
    const menu = await openMenu();
    const entry = await within(menu).findByRole('menuitem', { name: 'Moderation' });
    expect(entry).toHaveAttribute('href', '/moderation');
    const items = within(menu).getAllByRole('menuitem').map((item) => item.textContent?.trim());
    expect(items).toEqual(['Creator Studio', 'Dashboard', 'Profile', 'Collections', 'Saved', 'Settings', 'Moderation', 'Log out']);
  });

  it('has none for everyone else (the server answers a null role)', async () => {
    const { requests } = mockApi({ 'GET /api/moderation/role': jsonResponse(200, { role: null }) });
    renderApp('/settings');
    const menu = await openMenu();
    await waitFor(() => expect(requests.some((r) => r.url.endsWith('/api/moderation/role'))).toBe(true));
    expect(within(menu).getByRole('menuitem', { name: 'Settings' })).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Moderation' })).not.toBeInTheDocument();
  });
});
