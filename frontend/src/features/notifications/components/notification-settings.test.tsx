import { describe, expect, it } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createTestQueryClient, jsonResponse, mockFetch, signIn } from '../../../testing/test-utils';
import { NotificationSettings } from './notification-settings';

const ALL_ON = Object.fromEntries(['likes', 'comments', 'mentions', 'follows', 'collaboration', 'videos', 'exports'].map((t) => [t, { inApp: true, push: true }]));

function renderSettings() {
  signIn();
  const fetched = mockFetch((request) =>
    request.method === 'PUT' ? jsonResponse(200, { ...ALL_ON, likes: { inApp: true, push: false } }) : jsonResponse(200, ALL_ON),
  );
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <NotificationSettings />
    </QueryClientProvider>,
  );
  return fetched;
}

describe('notification settings', () => {
  it('has an in-app and a push switch per type, and saves the one turned', async () => {
    const { requests } = renderSettings();
    const likes = await screen.findByRole('group', { name: 'Likes' });
    // Each switch is named with its group: 14 switches, no two alike.
    const push = within(likes).getByRole('switch', { name: 'Likes: push' });
    expect(within(likes).getByRole('switch', { name: 'Likes: in the app' })).toBeInTheDocument();
    const names = screen.getAllByRole('switch').map((element) => element.getAttribute('aria-label') ?? element.id);
    expect(new Set(names).size).toBe(names.length);
    expect(push).toHaveAttribute('aria-checked', 'true');
    fireEvent.click(push);
    await waitFor(() => expect(push).toHaveAttribute('aria-checked', 'false'));
    expect(requests.find((r) => r.method === 'PUT')).toMatchObject({ url: 'http://localhost/api/notifications/preferences', body: { likes: { push: false } } });
    expect(screen.getAllByRole('group')).toHaveLength(7);
  });
});
