import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '../../../testing/api-mocks';
import { jsonResponse, renderApp, testUser } from '../../../testing/test-utils';
import { T1, T2 } from '../test-fixtures';

const P1 = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

const timeline = (id: string, title: string) => ({
  type: 'timeline',
  id,
  bookmarkedAt: '2025-03-12T12:00:00.000Z',
  timeline: { id, title, description: '', videoCount: 2, duration: 65, creatorId: testUser.id, creatorName: 'Grace Hopper', coverMediaId: null },
});

const post = {
  type: 'post',
  id: P1,
  bookmarkedAt: '2025-03-11T12:00:00.000Z',
  post: {
    id: P1,
    userId: testUser.id,
    content: 'Working on the harbour timeline today',
    hashtags: [],
    mentions: [],
    createdAt: '2025-03-10T12:00:00.000Z',
    updatedAt: '2025-03-10T12:00:00.000Z',
    edited: false,
    likesCount: 0,
    commentsCount: 0,
    liked: false,
    isLiked: false,
    bookmarked: true,
    isBookmarked: true,
    user: { id: testUser.id, username: 'ada', displayName: 'Ada Lovelace', avatar: null },
  },
};

describe('Saved', () => {
  it('is in the user menu', async () => {
    mockApi({ 'GET /api/bookmarks': jsonResponse(200, []) });
    const user = userEvent.setup();
    const { router } = renderApp('/settings');
    await user.click(await screen.findByRole('button', { name: /account menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: 'Saved' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/saved'));
    expect(await screen.findByRole('heading', { name: 'Saved', level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Nothing saved yet' })).toBeInTheDocument();
  });

  it('lists saved timelines and posts newest first and pages on with the cursor', async () => {
    const { requests } = mockApi({
      'GET /api/bookmarks': (request) =>
        new URL(request.url).searchParams.get('cursor') === 'next'
          ? jsonResponse(200, [post])
          : jsonResponse(200, [timeline(T1, 'Summer Trip'), timeline(T2, 'Harbour')], { headers: { 'Content-Type': 'application/json', 'X-Next-Cursor': 'next' } }),
    });
    const user = userEvent.setup();
    renderApp('/saved');
    const list = await screen.findByRole('list', { name: 'Saved posts and timelines' });
    expect(within(list).getByRole('link', { name: /Summer Trip/ })).toHaveAttribute('href', `/watch/${T1}`);
    expect(within(list).getByRole('link', { name: /Harbour/ })).toBeInTheDocument();
    expect(within(list).queryByText('Working on the harbour timeline today')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(list).findByText('Working on the harbour timeline today')).toBeInTheDocument();
    expect(within(list).getByRole('article', { name: 'Post by Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    const pages = requests.filter((request) => request.url.includes('/api/bookmarks')).map((request) => new URL(request.url).searchParams);
    expect(pages.map((params) => params.get('cursor'))).toEqual([null, 'next']);
    expect(pages[0]?.get('limit')).toBe('20');
  });

  it('unsaves an item at once', async () => {
    const { requests } = mockApi({
      'GET /api/bookmarks': jsonResponse(200, [timeline(T1, 'Summer Trip'), post]),
      [`DELETE /api/timelines/${T1}/bookmark`]: jsonResponse(200, { bookmarked: false, isBookmarked: false }),
    });
    const user = userEvent.setup();
    renderApp('/saved');
    await user.click(await screen.findByRole('button', { name: 'Remove Summer Trip from Saved' }));
    expect(screen.queryByRole('link', { name: /Summer Trip/ })).not.toBeInTheDocument();
    expect(screen.getByText('Working on the harbour timeline today')).toBeInTheDocument();
    await waitFor(() => expect(requests.some((request) => request.method === 'DELETE' && request.url.endsWith(`/api/timelines/${T1}/bookmark`))).toBe(true));
  });
});
