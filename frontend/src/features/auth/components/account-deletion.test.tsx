import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AUTH_TOKEN_KEY } from '../../../lib/auth-token';
import { ME_QUERY_KEY } from '../../../lib/current-user';
import { createTestQueryClient, jsonResponse, mockFetch, signIn, testUser } from '../../../testing/test-utils';
import { AuthScreen } from './auth-screen';
import { DeleteAccount } from './delete-account';

const authAnswer = { user: testUser, session: { token: 'new-token', expiresAt: '2030-01-01T00:00:00.000Z' } };
const MESSAGE = 'Your account is scheduled to be deleted on 28 December 2026. Cancel the deletion to keep your account and sign in.';
const pending = { deletionPending: { token: 'D'.repeat(43), purgeAfter: '2026-12-28T09:00:00.000Z', message: MESSAGE } };

function renderWith(ui: React.ReactElement) {
  const queryClient = createTestQueryClient();
  render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
  return { queryClient, user: userEvent.setup() };
}

describe('signing in to an account waiting to be deleted', () => {
  it('offers to cancel the deletion; cancelling signs in', async () => {
    const { requests } = mockFetch((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/api/auth/login') return jsonResponse(202, pending);
      return jsonResponse(200, authAnswer);
    });
    const { user, queryClient } = renderWith(<AuthScreen />);
    await user.type(screen.getByLabelText('Email or Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('heading', { name: 'Your account is being deleted' })).toHaveFocus();
    expect(screen.getByText(MESSAGE)).toBeInTheDocument();
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Cancel deletion and sign in' }));
    await waitFor(() => expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('new-token'));
    expect(requests[1]).toMatchObject({ method: 'POST', url: 'http://localhost/api/auth/account/deletion/cancel', body: { token: 'D'.repeat(43) } });
    expect(queryClient.getQueryData(ME_QUERY_KEY)).toEqual(testUser);
  });

  it('going back keeps the deletion and shows the sign-in form again', async () => {
    const { requests } = mockFetch(() => jsonResponse(202, pending));
    const { user } = renderWith(<AuthScreen />);
    await user.type(screen.getByLabelText('Email or Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await user.click(await screen.findByRole('button', { name: 'Back to sign in' }));
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(requests).toHaveLength(1);
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it("shows the server's words when the offer has expired", async () => {
    mockFetch((request) =>
      new URL(request.url).pathname === '/api/auth/login'
        ? jsonResponse(202, pending)
        : jsonResponse(401, { statusCode: 401, error: 'Unauthorized', message: 'This offer to cancel the deletion has expired. Please sign in again.' }),
    );
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderWith(<AuthScreen />);
    await user.type(screen.getByLabelText('Email or Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel deletion and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This offer to cancel the deletion has expired. Please sign in again.');
  });
});

describe('Settings › Account › Delete account', () => {
  it('asks for the password in a dialog, then the deletion is asked for and this device is signed out', async () => {
    signIn('old-token');
    const { requests } = mockFetch((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/api/auth/passkeys') return jsonResponse(200, []);
      if (path === '/api/auth/account/deletion') {
        return (request.body as { password?: string }).password === 'right-one'
          ? jsonResponse(202, { purgeAfter: '2026-12-28T09:00:00.000Z' })
          : jsonResponse(400, { statusCode: 400, error: 'Bad Request', message: 'Your password is not right' });
      }
      return new Response(null, { status: 204 });
    });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderWith(<DeleteAccount />);
    expect(screen.getByText(/For 30 days you can still change your mind/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    expect(dialog).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(screen.getByText('Please enter your password')).toBeInTheDocument();
    expect(requests.filter((r) => r.url.endsWith('/api/auth/account/deletion'))).toHaveLength(0);

    await user.type(screen.getByLabelText('Your password'), 'wrong-one');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your password is not right');
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('old-token');

    await user.clear(screen.getByLabelText('Your password'));
    await user.type(screen.getByLabelText('Your password'), 'right-one');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull());
    expect(requests.filter((r) => r.url.endsWith('/api/auth/account/deletion')).map((r) => r.body)).toEqual([{ password: 'wrong-one' }, { password: 'right-one' }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
