import { describe, expect, it } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '../../../testing/api-mocks';
import { createTestQueryClient, jsonResponse, renderApp, testUser } from '../../../testing/test-utils';
import { PostComposer } from '../../../features/posts/components/post-composer';

const grace = { id: '8d1f3c2a-1b2c-4d5e-8f90-1234567890ab', displayName: 'Grace Hopper', username: 'grace', avatar: null };
const me = { id: testUser.id, displayName: testUser.displayName, username: 'ada', avatar: null };
const at = new Date(Date.now() - 5 * 60_000).toISOString();
const post = (overrides: Record<string, unknown> = {}) => ({
  id: 'p1', userId: grace.id, content: 'Stitches, up close', hashtags: [], mentions: [], createdAt: at, updatedAt: at, edited: false,
  likesCount: 0, commentsCount: 0, liked: false, isLiked: false, bookmarked: false, isBookmarked: false, user: grace, sensitive: false, removedByModerators: false, ...overrides,
});

/** Issue 28 items 5–6 for posts: marked sensitive when shared or in its settings, covered until Show, "Removed by moderators" for its author, "Hidden by moderators" for staff. */
describe('sensitive and removed posts', () => {
  it('covers a sensitive post until Show, unless the viewer always shows sensitive media', async () => {
    mockApi({ 'GET /api/posts/p1': jsonResponse(200, post({ sensitive: true })), 'GET /api/auth/preferences': jsonResponse(200, { alwaysShowSensitive: false }) });
    renderApp('/post/p1');
    const cover = await screen.findByRole('group', { name: 'Sensitive content' });
    expect(within(cover).getByText(/This post was marked sensitive/)).toBeInTheDocument();
    expect(screen.queryByText('Stitches, up close')).not.toBeInTheDocument();
    await userEvent.setup().click(within(cover).getByRole('button', { name: 'Show' }));
    expect(await screen.findByText('Stitches, up close')).toBeInTheDocument();
  });

  it('shows it at once to a viewer who always shows sensitive media', async () => {
    mockApi({ 'GET /api/posts/p1': jsonResponse(200, post({ sensitive: true })), 'GET /api/auth/preferences': jsonResponse(200, { alwaysShowSensitive: true }) });
    renderApp('/post/p1');
    expect(await screen.findByText('Stitches, up close')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Sensitive content' })).not.toBeInTheDocument();
  });

  it("tells its author a post was removed by moderators, with the way to the notice; the author marks it sensitive in its settings", async () => {
    const { requests } = mockApi({
      'GET /api/posts/p1': jsonResponse(200, post({ userId: me.id, user: me, removedByModerators: true })),
      'PUT /api/posts/p1': (request) => jsonResponse(200, post({ userId: me.id, user: me, removedByModerators: true, ...(request.body as object) })),
      'GET /api/auth/preferences': jsonResponse(200, { alwaysShowSensitive: true }),
    });
    renderApp('/post/p1');
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('Removed by moderators. Only you can see it.');
    expect(within(note).getByRole('link', { name: 'See why' })).toHaveAttribute('href', '/moderation/notices');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /post options/i }));
    await user.click(await screen.findByRole('menuitem', { name: /edit/i }));
    await user.click(screen.getByRole('checkbox', { name: 'Sensitive' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ content: 'Stitches, up close', sensitive: true }));
  });

  it('shows staff a post the moderators took out on its page, read-only, under a "Hidden by moderators" banner', async () => {
    mockApi({ 'GET /api/posts/p1': jsonResponse(200, post({ removedByModerators: true, moderationReason: 'Spam links' })), 'GET /api/auth/preferences': jsonResponse(200, { alwaysShowSensitive: true }) });
    renderApp('/post/p1');
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('Hidden by moderators. Reason: Spam links.');
    expect(note).not.toHaveTextContent('Only you can see it');
    expect(within(note).getByRole('link', { name: 'Back to the moderation desk' })).toHaveAttribute('href', '/moderation');
    expect(screen.getByText('Stitches, up close')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /like/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /post options/i })).not.toBeInTheDocument();
  });

  it('shares a post marked sensitive from the composer', async () => {
    const { requests } = mockApi({ 'POST /api/posts': (request) => jsonResponse(201, post({ userId: me.id, user: me, ...(request.body as object) })) });
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <PostComposer user={{ displayName: 'Ada', avatar: null }} onCreated={() => undefined} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox'), 'Graphic but important');
    await user.click(screen.getByRole('checkbox', { name: 'Sensitive' }));
    await user.click(screen.getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ content: 'Graphic but important', sensitive: true }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Sensitive' })).not.toBeChecked());
  });
});
