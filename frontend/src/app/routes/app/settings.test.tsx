import { describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ME_QUERY_KEY } from '../../../features/auth/api/get-me';
import { jsonResponse, mockFetch, renderApp, signIn, testUser } from '../../../testing/test-utils';

describe('settings', () => {
  it('updates the profile and replaces the current user with the answer', async () => {
    signIn();
    const updated = { ...testUser, displayName: 'Ada King', bio: 'Analyst' };
    const { requests } = mockFetch((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/api/auth/me') return jsonResponse(200, testUser);
      if (path === '/api/auth/profile') return jsonResponse(200, updated);
      return jsonResponse(200, { count: 0 });
    });
    const user = userEvent.setup();
    const { queryClient } = renderApp('/settings');
    const name = await screen.findByLabelText('Display name');
    await user.clear(name);
    await user.type(name, 'Ada King');
    await user.type(screen.getByLabelText('Bio'), 'Analyst');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    const put = requests.find((request) => request.method === 'PUT');
    expect(put).toMatchObject({ url: 'http://localhost/api/auth/profile', body: { displayName: 'Ada King', bio: 'Analyst' } });
    await waitFor(() => expect(queryClient.getQueryData(ME_QUERY_KEY)).toEqual(updated));
    expect(screen.getByRole('button', { name: 'AK account menu for Ada King' })).toBeInTheDocument();
  });
});
