import { describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ME_QUERY_KEY } from '../../../lib/current-user';
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

  it('Security: lists sessions with this device first, signs one out, and changes the password', async () => {
    signIn();
    let sessions = [
      { id: 's1', browser: 'Chrome 131', system: 'Android 14', deviceType: 'mobile', ipAddress: '203.0.113.5', createdAt: '2026-11-01T10:00:00.000Z', lastActiveAt: new Date().toISOString(), current: true },
      { id: 's2', browser: 'Safari 17', system: 'macOS Catalina', deviceType: 'desktop', ipAddress: '198.51.100.7', createdAt: '2026-10-01T10:00:00.000Z', lastActiveAt: '2026-11-20T10:00:00.000Z', current: false },
    ];
    const { requests } = mockFetch((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/api/auth/me') return jsonResponse(200, testUser);
      if (path === '/api/auth/sessions') return jsonResponse(200, sessions);
      if (path === '/api/auth/sessions/s2') {
        sessions = sessions.filter((session) => session.id !== 's2');
        return new Response(null, { status: 204 });
      }
      if (path === '/api/auth/password') return jsonResponse(400, { statusCode: 400, error: 'Bad Request', message: 'Your current password is not right' });
      return jsonResponse(200, { count: 0 });
    });
    const user = userEvent.setup();
    renderApp('/settings?tab=security');
    expect(await screen.findByText('Chrome 131 on Android 14')).toBeInTheDocument();
    expect(screen.getByText('This device')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out Chrome 131 on Android 14' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out Safari 17 on macOS Catalina' }));
    await waitFor(() => expect(screen.queryByText('Safari 17 on macOS Catalina')).not.toBeInTheDocument());
    expect(requests.find((request) => request.method === 'DELETE')).toMatchObject({ url: 'http://localhost/api/auth/sessions/s2' });

    // The password form's field comes first; the e-mail form has one of its own.
    await user.type(screen.getAllByLabelText('Current password')[0]!, 'old-secret');
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Repeat new password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'a brand new secret');
    await user.clear(screen.getByLabelText('Repeat new password'));
    await user.type(screen.getByLabelText('Repeat new password'), 'a brand new secret');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your current password is not right')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')).toMatchObject({
      url: 'http://localhost/api/auth/password',
      body: { currentPassword: 'old-secret', newPassword: 'a brand new secret' },
    });
  });
});
