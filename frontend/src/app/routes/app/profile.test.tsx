import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createQueryClient } from '../../../lib/react-query';
import { errorResponse, mockApi } from '../../../testing/api-mocks';
import { jsonResponse, renderApp, testUser, type RecordedRequest } from '../../../testing/test-utils';

const GRACE = '7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b';
const ALAN = '8b2f3c4d-5e6f-4a71-9b0c-1d2e3f4a5b6c';
const T1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const T2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

function profileFixture(overrides: Record<string, unknown> = {}) {
  return {
    id: testUser.id,
    username: 'ada',
    displayName: 'Ada Lovelace',
    avatar: null,
    bio: 'First programmer.',
    location: 'London',
    website: 'https://ada.example.com',
    isVerified: false,
    isPrivate: false,
    joinedAt: '2024-03-10T00:00:00.000Z',
    createdAt: '2024-03-10T00:00:00.000Z',
    timelinesCount: 2,
    followersCount: 10,
    followingCount: 3,
    totalLikes: 40,
    totalViews: 900,
    ...overrides,
  };
}

const grace = (overrides: Record<string, unknown> = {}) =>
  profileFixture({ id: GRACE, username: 'grace', displayName: 'Grace Hopper', bio: null, location: null, website: null, isVerified: true, ...overrides });

function timelineFixture(overrides: Record<string, unknown> = {}) {
  return {
    id: T1,
    title: 'Summer Trip',
    description: 'Along the coast',
    videoCount: 3,
    duration: 185,
    creatorId: testUser.id,
    creatorName: testUser.displayName,
    creator: { id: testUser.id, displayName: testUser.displayName, username: 'ada', avatar: null },
    views: 10,
    likesCount: 2,
    commentsCount: 0,
    activityScore: 1,
    lastActivityAt: '2025-03-10T12:00:00.000Z',
    createdAt: '2025-03-10T12:00:00.000Z',
    updatedAt: '2025-03-10T12:00:00.000Z',
    coverMediaId: null,
    isLiked: false,
    liked: false,
    isBookmarked: false,
    bookmarked: false,
    visibility: 'public',
    status: 'published',
    ...overrides,
  };
}

const person = (id: string, displayName: string, username: string, isFollowing = false) => ({
  id,
  displayName,
  username,
  avatar: null,
  isFollowing,
  followedAt: '2025-03-10T12:00:00.000Z',
});

const followStatus = (isFollowing: boolean, followersCount: number, followingCount = 3) => ({ isFollowing, followersCount, followingCount });

/** The count shown under a label in the profile's header. */
const count = (label: string) => screen.getByText(label, { selector: 'dt' }).parentElement?.querySelector('dd')?.textContent;

/** A button once it can be used (Follow waits until it is known whether one follows already). */
function enabledButton(name: string) {
  return waitFor(() => {
    const button = screen.getByRole('button', { name });
    expect(button).toBeEnabled();
    return button;
  });
}

const pathOf = (request: RecordedRequest) => new URL(request.url).pathname;

/** A promise the test settles when it chooses, to look at the screen before the server answers. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('own profile', () => {
  it('shows the header, Edit Profile instead of Follow, and every timeline with who may see it', async () => {
    mockApi({
      [`GET /api/users/${testUser.id}/profile`]: jsonResponse(200, profileFixture()),
      [`GET /api/users/${testUser.id}/following`]: jsonResponse(200, followStatus(false, 10)),
      [`GET /api/users/${testUser.id}/timelines`]: jsonResponse(200, [
        timelineFixture(),
        timelineFixture({ id: T2, title: 'Night Walk', visibility: 'private', status: 'draft', videoCount: 1, duration: 61 }),
      ]),
    });
    renderApp(`/profile/${testUser.id}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByText('@ada')).toBeInTheDocument();
    expect(screen.getByText('First programmer.')).toBeInTheDocument();
    expect(screen.getByText('London')).toBeInTheDocument();
    const website = screen.getByRole('link', { name: 'ada.example.com' });
    expect(website).toHaveAttribute('href', 'https://ada.example.com/');
    expect(website).toHaveAttribute('rel', expect.stringContaining('noopener noreferrer nofollow'));
    expect(website).toHaveAttribute('target', '_blank');
    expect(screen.getByText('Joined March 2024')).toBeInTheDocument();
    expect([count('Timelines'), count('Followers'), count('Following'), count('Likes'), count('Views')]).toEqual(['2', '10', '3', '40', '900']);

    expect(screen.getByRole('button', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Follow' })).not.toBeInTheDocument();

    expect(screen.getByRole('tab', { name: 'Timelines', selected: true })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Timelines' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole('link', { name: /Summer Trip/ })).toHaveAttribute('href', `/watch/${T1}`);
    expect(within(items[0]!).getByText('Public')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Private')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Draft')).toBeInTheDocument();
  });

  it('says what each empty tab means for oneself', async () => {
    mockApi({
      [`GET /api/users/${testUser.id}/profile`]: jsonResponse(200, profileFixture({ timelinesCount: 0 })),
      [`GET /api/users/${testUser.id}/following`]: jsonResponse(200, followStatus(false, 0)),
      [`GET /api/users/${testUser.id}/timelines`]: jsonResponse(200, []),
      [`GET /api/users/${testUser.id}/followers`]: jsonResponse(200, []),
      [`GET /api/users/${testUser.id}/following-list`]: jsonResponse(200, []),
      [`GET /api/users/${testUser.id}/activity`]: jsonResponse(200, []),
    });
    const user = userEvent.setup();
    renderApp(`/profile/${testUser.id}`);
    expect(await screen.findByText("You haven't created any timelines yet.")).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Followers' }));
    expect(await screen.findByText('No one follows you yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Following' }));
    expect(await screen.findByText("You aren't following anyone yet.")).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Activity' }));
    expect(await screen.findByText('Your likes, comments, follows and new timelines will show here.')).toBeInTheDocument();
  });
});

describe("someone else's profile", () => {
  it('follows at once: the button and the followers count change before the server answers', async () => {
    const answer = deferred<Response>();
    const unfollowed = deferred<Response>();
    const { requests } = mockApi({
      [`GET /api/users/${GRACE}/profile`]: jsonResponse(200, grace()),
      [`GET /api/users/${GRACE}/following`]: jsonResponse(200, followStatus(false, 10)),
      [`GET /api/users/${GRACE}/timelines`]: jsonResponse(200, []),
      [`POST /api/users/${GRACE}/follow`]: () => answer.promise,
      [`DELETE /api/users/${GRACE}/follow`]: () => unfollowed.promise,
    });
    const user = userEvent.setup();
    renderApp(`/profile/${GRACE}`);

    expect(await screen.findByRole('heading', { level: 1, name: /Grace Hopper/ })).toBeInTheDocument();
    expect(screen.getByText('Verified account')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Profile' })).not.toBeInTheDocument();
    expect(await screen.findByText("Grace Hopper hasn't shared any timelines yet.")).toBeInTheDocument();

    await user.click(await enabledButton('Follow'));
    expect(screen.getByRole('button', { name: 'Unfollow' })).toBeInTheDocument();
    expect(count('Followers')).toBe('11');
    expect(requests.filter((request) => request.method === 'POST').map(pathOf)).toEqual([`/api/users/${GRACE}/follow`]);

    // The server's count wins (someone else followed in the meantime).
    answer.resolve(jsonResponse(200, followStatus(true, 12)));
    await waitFor(() => expect(count('Followers')).toBe('12'));

    await user.click(screen.getByRole('button', { name: 'Unfollow' }));
    expect(screen.getByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(count('Followers')).toBe('11');
    unfollowed.resolve(jsonResponse(200, followStatus(false, 10)));
    await waitFor(() => expect(count('Followers')).toBe('10'));
    expect(requests.filter((request) => request.method === 'DELETE').map(pathOf)).toEqual([`/api/users/${GRACE}/follow`]);
  });

  it('puts the button and the count back, with a toast, when the server refuses', async () => {
    const answer = deferred<Response>();
    mockApi({
      [`GET /api/users/${GRACE}/profile`]: jsonResponse(200, grace()),
      [`GET /api/users/${GRACE}/following`]: jsonResponse(200, followStatus(false, 10)),
      [`GET /api/users/${GRACE}/timelines`]: jsonResponse(200, []),
      [`POST /api/users/${GRACE}/follow`]: () => answer.promise,
    });
    const user = userEvent.setup();
    renderApp(`/profile/${GRACE}`);

    await user.click(await enabledButton('Follow'));
    expect(count('Followers')).toBe('11');
    answer.resolve(errorResponse(500, 'Following is unavailable right now'));

    expect(await screen.findByText("Couldn't follow Grace Hopper")).toBeInTheDocument();
    expect(screen.getByText('Following is unavailable right now')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(count('Followers')).toBe('10');
  });

  it('lists followers with their own follow buttons and loads the next page with the cursor', async () => {
    const { requests } = mockApi({
      [`GET /api/users/${GRACE}/profile`]: jsonResponse(200, grace()),
      [`GET /api/users/${GRACE}/following`]: jsonResponse(200, followStatus(false, 10)),
      [`GET /api/users/${GRACE}/followers`]: (request) =>
        new URL(request.url).searchParams.get('cursor') === 'page2'
          ? jsonResponse(200, [person(testUser.id, 'Ada Lovelace', 'ada')])
          : jsonResponse(200, [person(ALAN, 'Alan Turing', 'alan')], { headers: { 'Content-Type': 'application/json', 'X-Next-Cursor': 'page2' } }),
      [`POST /api/users/${ALAN}/follow`]: jsonResponse(200, followStatus(true, 5)),
    });
    const user = userEvent.setup();
    const { router } = renderApp(`/profile/${GRACE}?tab=followers`);

    const list = await screen.findByRole('list', { name: 'Followers' });
    expect(screen.getByRole('tab', { name: 'Followers', selected: true })).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'Alan Turing' })).toHaveAttribute('href', `/profile/${ALAN}`);
    expect(within(list).getByText('@alan')).toBeInTheDocument();

    await user.click(within(list).getByRole('button', { name: 'Follow Alan Turing' }));
    expect(within(list).getByRole('button', { name: 'Unfollow Alan Turing' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(list).findByRole('link', { name: 'Ada Lovelace' })).toBeInTheDocument();
    // No follow button on one's own row.
    expect(within(list).queryByRole('button', { name: /Ada Lovelace/ })).not.toBeInTheDocument();
    expect(
      requests.filter((request) => pathOf(request) === `/api/users/${GRACE}/followers`).map((request) => new URL(request.url).searchParams.get('cursor')),
    ).toContain('page2');

    await user.click(screen.getByRole('tab', { name: 'Timelines' }));
    expect(router.state.location.search).toBe('');
  });

  it('loads the next page of a list when its end scrolls into view', async () => {
    const watched: Array<() => void> = [];
    class NearViewport {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe() {
        watched.push(() => this.callback([{ isIntersecting: true } as IntersectionObserverEntry], this as unknown as IntersectionObserver));
      }
      disconnect() {}
    }
    const original = globalThis.IntersectionObserver;
    globalThis.IntersectionObserver = NearViewport as unknown as typeof IntersectionObserver;
    try {
      mockApi({
        [`GET /api/users/${GRACE}/profile`]: jsonResponse(200, grace()),
        [`GET /api/users/${GRACE}/following`]: jsonResponse(200, followStatus(false, 10)),
        [`GET /api/users/${GRACE}/following-list`]: (request) =>
          new URL(request.url).searchParams.get('cursor') === 'next'
            ? jsonResponse(200, [person(testUser.id, 'Ada Lovelace', 'ada', false)])
            : jsonResponse(200, [person(ALAN, 'Alan Turing', 'alan')], { headers: { 'Content-Type': 'application/json', 'X-Next-Cursor': 'next' } }),
      });
      renderApp(`/profile/${GRACE}?tab=following`);
      const list = await screen.findByRole('list', { name: 'Following' });
      expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
      await waitFor(() => expect(watched.length).toBeGreaterThan(0));
      act(() => watched.at(-1)!());
      expect(await within(list).findByRole('link', { name: 'Ada Lovelace' })).toBeInTheDocument();
      expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    } finally {
      globalThis.IntersectionObserver = original;
    }
  });

  it('shows a stranger only the header and the counts of a private account, with "This account is private"', async () => {
    const privateAnswer = () => errorResponse(403, 'This account is private');
    mockApi({
      [`GET /api/users/${GRACE}/profile`]: jsonResponse(200, grace({ isPrivate: true })),
      [`GET /api/users/${GRACE}/following`]: jsonResponse(200, { ...followStatus(false, 10), isRequested: false }),
      [`GET /api/users/${GRACE}/timelines`]: privateAnswer,
      [`GET /api/users/${GRACE}/followers`]: privateAnswer,
      [`GET /api/users/${GRACE}/following-list`]: privateAnswer,
      [`GET /api/users/${GRACE}/activity`]: privateAnswer,
    });
    renderApp(`/profile/${GRACE}`);

    expect(await screen.findByText('Private account')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'This account is private' })).toBeInTheDocument();
    expect(screen.getByText(/Follow Grace Hopper to see their timelines, posts and activity/)).toBeInTheDocument();
    expect(count('Followers')).toBe('10');
    expect(screen.queryByRole('tab', { name: 'Timelines' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Follow' })).toBeInTheDocument();
  });

  it('says Requested while the follow request of a private account waits', async () => {
    mockApi({
      [`GET /api/users/${GRACE}/profile`]: jsonResponse(200, grace({ isPrivate: true })),
      [`GET /api/users/${GRACE}/following`]: jsonResponse(200, { ...followStatus(false, 10), isRequested: true }),
    });
    renderApp(`/profile/${GRACE}`);
    expect(await screen.findByRole('button', { name: 'Requested: take back the follow request' })).toBeInTheDocument();
    expect(screen.getByText(/Your follow request is waiting for Grace Hopper/)).toBeInTheDocument();
  });

  it('describes activity in words, with links to the timeline or person', async () => {
    const activity = (id: string, activityType: string, metadata: Record<string, string>, targetId = T1) => ({
      id,
      userId: GRACE,
      activityType,
      targetType: activityType === 'followed_user' ? 'user' : 'timeline',
      targetId,
      metadata,
      createdAt: new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString(),
    });
    mockApi({
      [`GET /api/users/${GRACE}/profile`]: jsonResponse(200, grace()),
      [`GET /api/users/${GRACE}/following`]: jsonResponse(200, followStatus(false, 10)),
      [`GET /api/users/${GRACE}/activity`]: jsonResponse(200, [
        activity('a1', 'created_timeline', { timelineTitle: 'Compilers' }),
        activity('a2', 'liked_timeline', { timelineTitle: 'Summer Trip' }),
        activity('a3', 'commented_timeline', { timelineTitle: 'Summer Trip' }),
        activity('a4', 'bookmarked_timeline', { timelineTitle: 'Summer Trip' }),
        activity('a5', 'followed_user', { followedUsername: 'alan' }, ALAN),
      ]),
    });
    renderApp(`/profile/${GRACE}?tab=activity`);

    const list = await screen.findByRole('list', { name: 'Activity' });
    const lines = within(list).getAllByRole('listitem').map((item) => item.textContent);
    expect(lines).toEqual([
      'Created the timeline Compilers2 hours ago',
      'Liked Summer Trip2 hours ago',
      'Commented on Summer Trip2 hours ago',
      'Saved Summer Trip2 hours ago',
      'Followed @alan2 hours ago',
    ]);
    expect(within(list).getByRole('link', { name: 'Compilers' })).toHaveAttribute('href', `/watch/${T1}`);
    expect(within(list).getByRole('link', { name: '@alan' })).toHaveAttribute('href', `/profile/${ALAN}`);
  });
});

describe('Edit Profile', () => {
  const me = profileFixture();

  function editApi(extra: Parameters<typeof mockApi>[0] = {}) {
    let current = me;
    const api = mockApi({
      [`GET /api/users/${testUser.id}/profile`]: () => jsonResponse(200, current),
      [`GET /api/users/${testUser.id}/following`]: jsonResponse(200, followStatus(false, 10)),
      [`GET /api/users/${testUser.id}/timelines`]: jsonResponse(200, []),
      'PUT /api/auth/profile': (request) => {
        current = { ...current, ...(request.body as object) };
        return jsonResponse(200, { ...testUser, ...current });
      },
      ...extra,
    });
    return api;
  }

  it('checks the fields before sending and shows the server message by its field', async () => {
    const { requests } = editApi({
      'PUT /api/auth/profile': errorResponse(400, 'Location must be at most 100 characters'),
    });
    const user = userEvent.setup();
    renderApp(`/profile/${testUser.id}`);
    await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Profile' });

    const name = within(dialog).getByLabelText('Display name');
    expect(name).toHaveValue('Ada Lovelace');
    expect(within(dialog).getByLabelText('Bio')).toHaveAccessibleDescription('17 / 500 characters');
    await user.clear(name);
    await user.type(name, 'A');
    const website = within(dialog).getByLabelText('Website');
    await user.clear(website);
    await user.type(website, 'javascript:alert(1)');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(within(dialog).getByLabelText('Display name')).toHaveAccessibleDescription('Full name must be at least 2 characters');
    expect(website).toHaveAccessibleDescription('Website must be a link starting with http:// or https://');
    expect(name).toHaveFocus();
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(0);

    await user.type(name, 'da King');
    await user.clear(website);
    await user.type(website, 'https://ada.dev');
    await user.clear(within(dialog).getByLabelText('Location'));
    await user.type(within(dialog).getByLabelText('Location'), 'Somewhere far');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(within(dialog).getByLabelText('Location')).toHaveAccessibleDescription('Location must be at most 100 characters'));
    expect(within(dialog).getByLabelText('Location')).toHaveFocus();
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({ displayName: 'Ada King', location: 'Somewhere far', website: 'https://ada.dev' });
    expect(screen.getByRole('dialog', { name: 'Edit Profile' })).toBeInTheDocument();
  });

  it('saves only what changed, makes the account private, and shows the new profile', async () => {
    const { requests } = editApi();
    const user = userEvent.setup();
    renderApp(`/profile/${testUser.id}`);
    await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Profile' });

    const bio = within(dialog).getByLabelText('Bio');
    await user.clear(bio);
    await user.type(bio, 'Poet of numbers');
    expect(bio).toHaveAccessibleDescription('15 / 500 characters');
    const privacy = within(dialog).getByRole('switch', { name: 'Private account' });
    expect(privacy).toHaveAttribute('aria-checked', 'false');
    await user.click(privacy);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Profile' })).not.toBeInTheDocument());
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({ bio: 'Poet of numbers', isPrivate: true });
    expect(await screen.findByText('Poet of numbers')).toBeInTheDocument();
    expect(screen.getByText('Private account')).toBeInTheDocument();
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Profile' })).toHaveFocus();
  });

  describe('profile photo', () => {
    const created: Blob[] = [];
    beforeEach(() => {
      created.length = 0;
      URL.createObjectURL = (blob: Blob | MediaSource) => {
        created.push(blob as Blob);
        return `blob:preview-${created.length}`;
      };
      URL.revokeObjectURL = () => undefined;
    });

    const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });

    it('previews the picked picture, uploads it, then saves its address with the profile', async () => {
      const avatar = `/api/users/${testUser.id}/avatar?v=2`;
      const { requests } = editApi({ 'POST /api/media/avatar': jsonResponse(201, { avatar }) });
      const user = userEvent.setup();
      renderApp(`/profile/${testUser.id}`);
      await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit Profile' });

      await user.upload(within(dialog).getByLabelText('Choose photo'), png());
      expect(created).toHaveLength(1);
      expect(within(dialog).getByText('me.png: shown here as a preview until you save.')).toBeInTheDocument();
      expect(dialog.querySelector('.avatar')).not.toBeNull();
      await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Profile' })).not.toBeInTheDocument());
      const upload = requests.find((request) => pathOf(request) === '/api/media/avatar');
      expect(upload?.method).toBe('POST');
      expect(upload?.body).toBeInstanceOf(FormData);
      expect(((upload?.body as FormData).get('file') as File).name).toBe('me.png');
      expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({ avatar });
    });

    it('refuses a file that is not an image before uploading, and shows an upload refusal by the photo', async () => {
      const { requests } = editApi({ 'POST /api/media/avatar': errorResponse(400, 'Please choose an image file (JPEG, PNG, WebP or GIF)') });
      const user = userEvent.setup({ applyAccept: false });
      renderApp(`/profile/${testUser.id}`);
      await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit Profile' });
      const input = within(dialog).getByLabelText('Choose photo');

      await user.upload(input, new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }));
      expect(input).toHaveAccessibleDescription(expect.stringContaining('Please choose an image file (JPEG, PNG, WebP or GIF)'));
      expect(created).toHaveLength(0);

      // A PNG by its name and type, which the server finds is not one.
      await user.upload(input, png());
      await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
      await waitFor(() =>
        expect(within(dialog).getByLabelText('Change photo')).toHaveAccessibleDescription(expect.stringContaining('Please choose an image file (JPEG, PNG, WebP or GIF)')),
      );
      expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
    });
  });
});

describe('Invalid Profile', () => {
  it('says so at once for an unknown id, with the app’s own retry rules (a 404 is not retried)', async () => {
    const { requests } = mockApi({});
    renderApp('/profile/00000000-0000-4000-8000-000000000000', createQueryClient());
    // Three retries would take 1 + 2 + 4 s; the first alone starts after 1 s.
    expect(await screen.findByRole('heading', { name: 'Invalid Profile' }, { timeout: 900 })).toBeInTheDocument();
    const asked = () => requests.filter((request) => pathOf(request).endsWith('/profile')).length;
    const soFar = asked();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(asked()).toBe(soFar);
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it('says so for an id that cannot be a user id, without asking', async () => {
    const { requests } = mockApi({});
    renderApp('/profile/not-a-user');
    expect(await screen.findByRole('heading', { name: 'Invalid Profile' })).toBeInTheDocument();
    expect(requests.some((request) => pathOf(request).startsWith('/api/users/'))).toBe(false);
  });
});
