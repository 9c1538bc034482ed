import { describe, expect, it } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { Post } from '../../../features/posts/api/types';
import { PostCard } from '../../../features/posts/components/post-card';
import { mockApi } from '../../../testing/api-mocks';
import { createTestQueryClient, jsonResponse, renderApp, testUser, type RecordedRequest } from '../../../testing/test-utils';

const grace = { id: '8d1f3c2a-1b2c-4d5e-8f90-1234567890ab', displayName: 'Grace Hopper', username: 'grace', avatar: null };
const me = { id: testUser.id, displayName: testUser.displayName, username: 'ada', avatar: null };
const at = new Date(Date.now() - 5 * 60_000).toISOString();

function post(id: string, author: typeof grace = grace): Post {
  return {
    id, userId: author.id, content: `Post ${id}`, hashtags: [], mentions: [], createdAt: at, updatedAt: at, edited: false,
    likesCount: 0, commentsCount: 0, liked: false, isLiked: false, bookmarked: false, isBookmarked: false, user: author, sensitive: false, removedByModerators: false,
  };
}

const feed = (posts: Post[]) => jsonResponse(200, posts.map((value) => ({ type: 'post', id: value.id, post: value })));
const reportsSent = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST' && r.url.endsWith('/api/reports')).map((r) => r.body);
const filed = (request: RecordedRequest) => jsonResponse(201, { id: 'r1', ...(request.body as object), description: null, status: 'pending', createdAt: new Date().toISOString() });
const article = (content: string) => screen.getByText(content).closest('article')!;

/** Issue 28: people can report a text post that is not theirs, from its options menu. */
describe('reporting a post', () => {
  it("in the home feed: Report Post on someone else's post, not on one's own; once sent, the post leaves the feed", async () => {
    const { requests } = mockApi({
      'GET /api/timelines': jsonResponse(200, []),
      'GET /api/feed': feed([post('mine', me), post('theirs')]),
      'POST /api/reports': filed,
    });
    const user = userEvent.setup();
    renderApp('/');
    await screen.findByText('Post theirs');

    await user.click(within(article('Post mine')).getByRole('button', { name: 'Post options' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['Edit Post', 'Comment settings', 'Delete Post']);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());

    await user.click(within(article('Post theirs')).getByRole('button', { name: 'Post options' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['Report Post']);
    await user.click(screen.getByRole('menuitem', { name: 'Report Post' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report Post' });
    expect(within(dialog).getByRole('button', { name: 'Report' })).toBeDisabled();
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));

    expect(await screen.findByText('Report sent')).toBeInTheDocument();
    expect(screen.getByText("Thanks for telling us. We'll review it, and you won't see it in your feed.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Post theirs')).not.toBeInTheDocument());
    expect(screen.getByText('Post mine')).toBeInTheDocument();
    expect(reportsSent(requests)).toEqual([{ contentType: 'post', contentId: 'theirs', reason: 'spam' }]);
  });

  it("on the post's page, by keyboard alone, with details", async () => {
    const { requests } = mockApi({
      'GET /api/posts/p1': jsonResponse(200, post('p1')),
      'GET /api/auth/preferences': jsonResponse(200, { alwaysShowSensitive: true }),
      'POST /api/reports': filed,
    });
    const user = userEvent.setup();
    renderApp('/post/p1');
    const button = await screen.findByRole('button', { name: 'Post options' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    button.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(menu.contains(document.activeElement)).toBe(true));
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Report Post' })).toHaveFocus());
    await user.keyboard('{Enter}');

    const dialog = await screen.findByRole('dialog', { name: 'Report Post' });
    await user.click(within(dialog).getByRole('radio', { name: 'Harassment or bullying' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Details (optional)' }), 'Keeps posting about me');
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));
    expect(await screen.findByText('Report sent')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report Post' })).not.toBeInTheDocument());
    expect(reportsSent(requests)).toEqual([{ contentType: 'post', contentId: 'p1', reason: 'harassment', description: 'Keeps posting about me' }]);
  });

  it('offers no Report Post outside the signed-in app (no report dialog given)', () => {
    mockApi({});
    const noop = () => () => undefined;
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <MemoryRouter>
          <PostCard post={post('p1')} viewerId={me.id} store={{ patchPost: noop, removePost: () => undefined }} editing={false} onEditingChange={() => undefined} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByText('Post p1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Post options' })).not.toBeInTheDocument();
  });
});
