import { describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AUTH_TOKEN_KEY } from '../lib/auth-token';
import { jsonResponse, mockFetch, renderApp, signIn, testUser, type RecordedRequest } from '../testing/test-utils';

const profile = {
  id: testUser.id,
  username: 'ada',
  displayName: 'Ada Lovelace',
  avatar: null,
  bio: 'First programmer.',
  location: 'London',
  website: 'https://ada.example.com',
  isVerified: true,
  isPrivate: false,
  joinedAt: '2024-03-10T00:00:00.000Z',
  createdAt: '2024-03-10T00:00:00.000Z',
  timelinesCount: 7,
  followersCount: 1234,
  followingCount: 56,
  totalLikes: 89,
  totalViews: 4321,
};

/** A signed-in API: the current user, the unread count and the given profile answers. */
function signedInApi(extra: (request: RecordedRequest) => Response | undefined = () => undefined) {
  signIn();
  return mockFetch((request) => {
    const path = new URL(request.url).pathname;
    const answer = extra(request);
    if (answer) return answer;
    if (path === '/api/auth/me') return jsonResponse(200, testUser);
    if (path === '/api/auth/logout') return new Response(null, { status: 204 });
    if (path === '/api/notifications/unread-count') return jsonResponse(200, { count: 3 });
    if (path === `/api/users/${profile.id}/profile`) return jsonResponse(200, profile);
    return jsonResponse(404, { statusCode: 404, error: 'Not Found', message: 'Not found' });
  });
}

describe('route guard', () => {
  // /collections says 'Access Denied' instead (spec 001, "Collections"; see its own tests).
  it.each(['/', '/studio', '/profile/' + testUser.id, '/saved', '/no-such-page'])(
    'shows the sign-in screen at %s when signed out',
    async (path) => {
      const { requests } = mockFetch(() => jsonResponse(500, {}));
      renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
      expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
      expect(requests).toHaveLength(0);
    },
  );

  it('lets a signed-out visitor open an invitation link', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch(() => jsonResponse(404, { statusCode: 404, error: 'Not Found', message: 'Invitation not found' }));
    renderApp('/invite/abc123');
    expect(await screen.findByRole('heading', { name: 'Invalid Invitation' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Welcome Back' })).not.toBeInTheDocument();
  });

  it("says 'Invalid Invitation Link' without a token", async () => {
    renderApp('/invite');
    expect(await screen.findByRole('heading', { name: 'Invalid Invitation Link' })).toBeInTheDocument();
  });

  it('checks a stored token and removes it when the server rejects it', async () => {
    signIn('stale-token');
    const { requests } = mockFetch(() => jsonResponse(401, { statusCode: 401, error: 'Unauthorized', message: 'Unauthorized' }));
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer stale-token');
  });

  it('keeps the token and offers a retry when offline', async () => {
    signIn('good-token');
    jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/');
    expect(await screen.findByRole('heading', { name: "Can't reach Timeliner" })).toBeInTheDocument();
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('good-token');
  });

  it('shows the app to a signed-in user, and a 404 page for unknown addresses', async () => {
    signedInApi();
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Timeliner home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });
});

describe('signed-in shell', () => {
  it('shows the unread badge and the user menu, and logs out', async () => {
    const { requests } = signedInApi();
    const user = userEvent.setup();
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Notifications, 3 unread' })).toHaveTextContent('3');

    // The name begins with what the button shows (the initials), then says what it is.
    const trigger = screen.getByRole('button', { name: 'AL account menu for Ada Lovelace' });
    expect(trigger).toHaveTextContent(/^AL/);
    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('ada@example.com')).toBeInTheDocument();
    // The open menu is inside the header's landmark, not loose at the end of <body>.
    expect(screen.getByRole('banner')).toContainElement(menu);
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent?.trim());
    expect(items).toEqual(['Creator Studio', 'Dashboard', 'Profile', 'Collections', 'Saved', 'Settings', 'Log out']);
    expect(within(menu).getByRole('menuitem', { name: 'Profile' })).toHaveAttribute('href', `/profile/${testUser.id}`);
    expect(within(menu).getByRole('menuitem', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');

    await user.click(within(menu).getByRole('menuitem', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    const logout = requests.find((request) => request.url.endsWith('/api/auth/logout'));
    expect(logout?.method).toBe('POST');
    expect(logout?.headers.get('Authorization')).toBe('Bearer test-token');
  });

  it('signs out locally even when the logout call fails', async () => {
    signedInApi((request) =>
      request.url.endsWith('/api/auth/logout') ? new Response('', { status: 500, statusText: 'Server Error' }) : undefined,
    );
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'AL account menu for Ada Lovelace' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it('searches from the header: a click opens /search, Enter opens /search?q=', async () => {
    signedInApi();
    const user = userEvent.setup();
    const { router } = renderApp('/');
    let box = await screen.findByRole('searchbox', { name: 'Search timelines and people' });
    await user.click(box);
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    // The page's own box takes over, ready for typing.
    await waitFor(() => expect(screen.getByRole('searchbox', { name: 'Search timelines, people and hashtags' })).toHaveFocus());

    await act(() => router.navigate('/collections'));
    box = await screen.findByRole('searchbox', { name: 'Search timelines and people' });
    box.focus();
    await user.type(box, '   {Enter}', { skipClick: true });
    expect(router.state.location.pathname).toBe('/collections');
    await user.type(box, 'cats & dogs{Enter}', { skipClick: true });
    await waitFor(() => expect(router.state.location.search).toBe('?q=cats%20%26%20dogs'));
    expect(await screen.findByRole('searchbox', { name: 'Search timelines, people and hashtags' })).toHaveValue('cats & dogs');
    // On /search the page's box is the only one, in the only (named) search landmark.
    expect(screen.getAllByRole('searchbox')).toHaveLength(1);
    expect(screen.getAllByRole('search').map((landmark) => landmark.getAttribute('aria-label'))).toEqual(['Search page']);
  });

  it('names each search landmark where there are two (the header and the dashboard)', async () => {
    signedInApi((request) => (new URL(request.url).pathname === '/api/my-timelines' ? jsonResponse(200, []) : undefined));
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Experiences Dashboard' });
    const names = screen.getAllByRole('search').map((landmark) => landmark.getAttribute('aria-label'));
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
    expect(names.every(Boolean)).toBe(true);
  });

  it('marks Studio active on /timeline/ pages and hides the bottom navigation on /watch/', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    signedInApi();
    const { router } = renderApp('/timeline/42');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Studio' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');

    await act(() => router.navigate('/watch/42'));
    expect(await screen.findByRole('heading', { name: 'Timeline Not Found' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('opens the timeline picker from Create', async () => {
    signedInApi((request) => (new URL(request.url).pathname === '/api/my-timelines' ? jsonResponse(200, []) : undefined));
    const user = userEvent.setup();
    renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('dialog', { name: 'Select Timeline' })).toBeInTheDocument();
  });

  it('opens the timeline picker from the header on a desktop (Add videos), on any page', async () => {
    signedInApi((request) => (new URL(request.url).pathname === '/api/my-timelines' ? jsonResponse(200, []) : undefined));
    const user = userEvent.setup();
    renderApp('/collections');
    const header = await screen.findByRole('banner');
    await user.click(within(header).getByRole('button', { name: 'Add videos' }));
    expect(await screen.findByRole('dialog', { name: 'Select Timeline' })).toBeInTheDocument();
  });
});

describe('profile page', () => {
  it('shows the profile and its real counts', async () => {
    signedInApi();
    renderApp(`/profile/${profile.id}`);
    expect(await screen.findByRole('heading', { name: /Ada Lovelace/ })).toBeInTheDocument();
    expect(screen.getByText('@ada')).toBeInTheDocument();
    expect(screen.getByText('First programmer.')).toBeInTheDocument();
    expect(screen.getByText('London')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ada.example.com' })).toHaveAttribute('href', 'https://ada.example.com/');
    expect(screen.getByText('Joined March 2024')).toBeInTheDocument();
    const stat = (label: string) => screen.getByText(label, { selector: 'dt' }).parentElement?.querySelector('dd')?.textContent;
    expect(stat('Timelines')).toBe('7');
    expect(stat('Followers')).toBe('1.2K');
    expect(stat('Following')).toBe('56');
    expect(stat('Likes')).toBe('89');
    expect(stat('Views')).toBe('4.3K');
    expect(screen.getByText('Verified account')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Profile' })).toBeInTheDocument();
  });

  it("says 'Invalid Profile' for an id that is not a user id, without asking the server", async () => {
    const { requests } = signedInApi();
    renderApp('/profile/not-a-uuid');
    expect(await screen.findByRole('heading', { name: 'Invalid Profile' })).toBeInTheDocument();
    expect(requests.some((request) => request.url.includes('/api/users/'))).toBe(false);
  });

  it("says 'Invalid Profile' when no user has that id", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    signedInApi();
    renderApp('/profile/00000000-0000-4000-8000-000000000000');
    expect(await screen.findByRole('heading', { name: 'Invalid Profile' })).toBeInTheDocument();
  });
});
