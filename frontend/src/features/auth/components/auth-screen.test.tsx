import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AUTH_TOKEN_KEY } from '../../../lib/auth-token';
import { createTestQueryClient, jsonResponse, mockFetch, testUser } from '../../../testing/test-utils';
import { ME_QUERY_KEY } from '../../../lib/current-user';
import { AuthScreen } from './auth-screen';

function renderAuthScreen() {
  const queryClient = createTestQueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <AuthScreen />
    </QueryClientProvider>,
  );
  return { queryClient, user: userEvent.setup() };
}

const authAnswer = { user: testUser, session: { token: 'new-token', expiresAt: '2030-01-01T00:00:00.000Z' } };

describe('sign in', () => {
  it("shows 'Welcome Back' with the two fields", () => {
    renderAuthScreen();
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email or Username')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });

  it('shows the field rules on submit and sends nothing', async () => {
    const { requests } = mockFetch(() => jsonResponse(200, authAnswer));
    const { user } = renderAuthScreen();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Please enter your email or username')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Email or Username')).toHaveAccessibleDescription('Please enter your email or username');
    expect(requests).toHaveLength(0);

    await user.type(screen.getByLabelText('Email or Username'), 'ada');
    expect(screen.queryByText('Please enter your email or username')).not.toBeInTheDocument();
  });

  it('signs in: posts the credentials, stores the token and sets the user', async () => {
    const { requests } = mockFetch(() => jsonResponse(200, authAnswer));
    const { user, queryClient } = renderAuthScreen();
    await user.type(screen.getByLabelText('Email or Username'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('new-token'));
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: 'http://localhost/api/auth/login',
      body: { login: 'ada@example.com', password: 'secret1' },
    });
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('new-token');
    expect(queryClient.getQueryData(ME_QUERY_KEY)).toEqual(testUser);
  });

  it('asks for a code when the account has two-step sign-in, and signs in only once the code is right', async () => {
    const pending = { secondStep: { token: 'P'.repeat(43), expiresAt: '2030-01-01T00:00:00.000Z' } };
    const { requests } = mockFetch((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/api/auth/login') return jsonResponse(202, pending);
      return jsonResponse(200, authAnswer);
    });
    const { user, queryClient } = renderAuthScreen();
    await user.type(screen.getByLabelText('Email or Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('heading', { name: 'Two-step sign-in' })).toHaveFocus();
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    await user.type(screen.getByLabelText('Code'), '12');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Please enter the 6-digit code from your app')).toBeInTheDocument();
    expect(requests).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcde-fghjk');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('new-token'));
    expect(requests[1]).toMatchObject({ method: 'POST', url: 'http://localhost/api/auth/login/second-step', body: { token: 'P'.repeat(43), code: 'abcde-fghjk' } });
    expect(queryClient.getQueryData(ME_QUERY_KEY)).toEqual(testUser);
  });

  it("shows the server's message when sign-in fails", async () => {
    mockFetch(() =>
      jsonResponse(401, { statusCode: 401, error: 'Unauthorized', message: 'Invalid email/username or password' }),
    );
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderAuthScreen();
    await user.type(screen.getByLabelText('Email or Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email/username or password');
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it("falls back to 'Login failed' when the answer carries no message", async () => {
    mockFetch(() => new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderAuthScreen();
    await user.type(screen.getByLabelText('Email or Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed');
  });

  it("falls back to 'Login failed' when the server cannot be reached", async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderAuthScreen();
    await user.type(screen.getByLabelText('Email or Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed');
  });
});

describe('sign up', () => {
  async function openSignUp() {
    const context = renderAuthScreen();
    await context.user.click(screen.getByRole('button', { name: 'Sign up' }));
    return context;
  }

  it("toggles to 'Create Account' with its four fields and back", async () => {
    const { user } = await openSignUp();
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    for (const label of ['Full Name', 'Username', 'Email', 'Password']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
  });

  it('shows every field rule', async () => {
    const { requests } = mockFetch(() => jsonResponse(201, authAnswer));
    const { user } = await openSignUp();
    await user.type(screen.getByLabelText('Full Name'), 'A');
    await user.type(screen.getByLabelText('Username'), 'ab');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText('Full name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('registers with the four fields and signs in', async () => {
    const { requests } = mockFetch(() => jsonResponse(201, authAnswer));
    const { user, queryClient } = await openSignUp();
    await user.type(screen.getByLabelText('Full Name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('new-token'));
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: 'http://localhost/api/auth/register',
      body: { displayName: 'Ada Lovelace', username: 'ada', email: 'ada@example.com', password: 'secret1' },
    });
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('new-token');
    expect(queryClient.getQueryData(ME_QUERY_KEY)).toEqual(testUser);
  });

  it("shows the server's message (taken username) or falls back to 'Registration failed'", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch(() => jsonResponse(409, { statusCode: 409, error: 'Conflict', message: 'Username is already taken' }));
    const { user } = await openSignUp();
    await user.type(screen.getByLabelText('Full Name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Username is already taken');

    mockFetch(() => new Response('', { status: 500, statusText: 'Internal Server Error' }));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Registration failed')).toBeInTheDocument();
  });
});

describe('forgot password', () => {
  const ANSWER = 'If an account uses that address, we have sent it a link to choose a new password. It works for 30 minutes.';

  it('asks for a reset link from the sign-in screen and shows the one answer for every address', async () => {
    const { requests } = mockFetch(() => jsonResponse(202, { message: ANSWER }));
    const { user } = renderAuthScreen();
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(requests).toHaveLength(0);

    await user.type(screen.getByLabelText('Email'), ' ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(ANSWER);
    expect(requests[0]).toMatchObject({ method: 'POST', url: 'http://localhost/api/auth/password/forgot', body: { email: 'ada@example.com' } });
    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
  });

  it("shows the server's message when asked too often", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch(() => jsonResponse(429, { statusCode: 429, error: 'Too Many Requests', message: 'Too many attempts. Try again in 60 minutes.' }));
    const { user } = renderAuthScreen();
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Try again in 60 minutes.');
  });
});
