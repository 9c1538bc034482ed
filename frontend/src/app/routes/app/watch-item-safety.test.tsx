import { describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, noContent, timelineFixture } from '../../../testing/api-mocks';
import { videoFixture } from '../../../testing/media-fixtures';
import { jsonResponse, renderApp, testUser } from '../../../testing/test-utils';

const comment = (id: string, content: string, userId: string) => ({
  id, videoId: 'a', timelineId: 't1', parentId: null, content, userId, userName: 'Grace Hopper', createdAt: new Date(Date.now() - 120_000).toISOString(),
  user: { id: userId, displayName: userId === testUser.id ? 'Ada Lovelace' : 'Grace Hopper', username: 'x', avatar: null },
  replies: [], repliesCount: 0, repliesCursor: null as string | null, likesCount: 0,
});

function watch(routes: Parameters<typeof mockApi>[0] = {}, { role = null as string | null, videos = [videoFixture({ id: 'a', title: 'Alpha' })] } = {}) {
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  return mockApi({
    'GET /api/timelines/t1': jsonResponse(200, timelineFixture({ role, visibility: 'public', status: 'published' })),
    'GET /api/timelines/t1/videos': jsonResponse(200, videos),
    'GET /api/timelines': jsonResponse(200, []),
    'GET /api/videos/a/liked': jsonResponse(200, { isLiked: false, liked: false, likesCount: 0 }),
    'GET /api/videos/a/comments': jsonResponse(200, [comment('c1', 'Nasty words', 'someone-else')]),
    ...routes,
  });
}

/** Issue 28 items 5–6 in the player: a sensitive item covered until Show, Report on the item, removed items marked for their team, comment moderation. */
describe('the player and the safety of single items', () => {
  it('covers a sensitive video with Show (nothing plays meanwhile), then plays it', async () => {
    watch({ 'GET /api/auth/preferences': jsonResponse(200, { alwaysShowSensitive: false }) }, { videos: [videoFixture({ id: 'a', title: 'Alpha', sensitive: true })] });
    renderApp('/watch/t1');
    const cover = await screen.findByRole('group', { name: 'Sensitive content' });
    expect(within(cover).getByText('This video was marked sensitive. It may show things some people would rather not see.')).toBeInTheDocument();
    expect(document.querySelector('video')).toBeNull();
    await userEvent.setup().click(within(cover).getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(document.querySelector('video')).not.toBeNull());
    expect(screen.queryByRole('group', { name: 'Sensitive content' })).not.toBeInTheDocument();
  });

  it('shows a sensitive video at once to a viewer who always shows sensitive media', async () => {
    watch({ 'GET /api/auth/preferences': jsonResponse(200, { alwaysShowSensitive: true }) }, { videos: [videoFixture({ id: 'a', title: 'Alpha', sensitive: true })] });
    renderApp('/watch/t1');
    await waitFor(() => expect(document.querySelector('video')).not.toBeNull());
    expect(screen.queryByRole('group', { name: 'Sensitive content' })).not.toBeInTheDocument();
  });

  it('reports the video on screen, with a reason', async () => {
    const { requests } = watch({ 'POST /api/reports': jsonResponse(201, { id: 'r1', contentType: 'video', contentId: 'a', reason: 'violence', description: null, status: 'pending', createdAt: new Date().toISOString() }) });
    renderApp('/watch/t1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Report this video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report Video' });
    await user.click(within(dialog).getByRole('radio', { name: 'Violence' }));
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));
    await waitFor(() => expect(requests.find((r) => r.method === 'POST' && r.url.endsWith('/api/reports'))?.body).toEqual({ contentType: 'video', contentId: 'a', reason: 'violence' }));
  });

  it('reports the image on screen as a single item (a video or image to the desk)', async () => {
    const { requests } = watch(
      { 'POST /api/reports': jsonResponse(201, { id: 'r1', contentType: 'video', contentId: 'i', reason: 'nudity', description: null, status: 'pending', createdAt: new Date().toISOString() }) },
      { videos: [videoFixture({ id: 'i', title: 'Cliff', mediaType: 'image', originalName: 'cliff.png' })] },
    );
    renderApp('/watch/t1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Report this image' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report Image' });
    await user.click(within(dialog).getByRole('radio', { name: 'Nudity or sexual content' }));
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));
    await waitFor(() => expect(requests.find((r) => r.method === 'POST' && r.url.endsWith('/api/reports'))?.body).toEqual({ contentType: 'video', contentId: 'i', reason: 'nudity' }));
    expect(await screen.findByText('Report sent')).toBeInTheDocument();
  });

  it("offers no Report to the timeline's team, and marks for them an item the moderators removed", async () => {
    watch({}, { role: 'owner', videos: [videoFixture({ id: 'a', title: 'Alpha', removedByModerators: true })] });
    renderApp('/watch/t1');
    expect(await screen.findByRole('link', { name: 'Removed by moderators' })).toHaveAttribute('href', '/moderation/notices');
    expect(screen.queryByRole('button', { name: 'Report this video' })).not.toBeInTheDocument();
    // Theirs to act on still, with no staff note.
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /like/i })).toBeInTheDocument();
  });

  it("lets the timeline's owner delete anyone's comment on its video", async () => {
    const { requests } = watch({ 'DELETE /api/videos/a/comments/c1': noContent(), 'GET /api/moderation/role': jsonResponse(200, { role: null }) }, { role: 'owner' });
    renderApp('/watch/t1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Comments/ }));
    await user.click(await screen.findByRole('button', { name: 'Delete comment from Grace Hopper' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE' && r.url.endsWith('/api/videos/a/comments/c1'))).toBe(true));
    expect(screen.queryByRole('button', { name: 'Hide comment from Grace Hopper' })).not.toBeInTheDocument();
  });

  it('lets a moderator hide a comment through the desk, with a reason; nobody else is offered it', async () => {
    const { requests } = watch({
      'GET /api/moderation/role': jsonResponse(200, { role: 'moderator' }),
      'POST /api/moderation/items/video_comment/c1/decision': jsonResponse(201, { id: 'x', action: 'hide' }),
    });
    renderApp('/watch/t1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Comments/ }));
    expect(screen.queryByRole('button', { name: 'Delete comment from Grace Hopper' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Hide comment from Grace Hopper' }));
    await user.type(screen.getByRole('textbox', { name: 'Why hide it? (its author is told)' }), 'Harassment');
    await user.click(screen.getByRole('button', { name: 'Hide comment' }));
    await waitFor(() => expect(requests.find((r) => r.url.endsWith('/api/moderation/items/video_comment/c1/decision'))?.body).toEqual({ action: 'hide', reason: 'Harassment' }));
  });

  it('offers no Hide to a viewer who is not staff', async () => {
    const { requests } = watch({ 'GET /api/moderation/role': jsonResponse(200, { role: null }) });
    renderApp('/watch/t1');
    await userEvent.setup().click(await screen.findByRole('button', { name: /^Comments/ }));
    await screen.findByText('Nasty words');
    await waitFor(() => expect(requests.some((r) => r.url.endsWith('/api/moderation/role'))).toBe(true));
    expect(screen.queryByRole('button', { name: 'Hide comment from Grace Hopper' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete comment from Grace Hopper' })).not.toBeInTheDocument();
  });

  it('shows staff a timeline the moderators took out, opened from the desk, read-only under a "Hidden by moderators" note with the way back to the desk', async () => {
    watch({ 'GET /api/timelines/t1': jsonResponse(200, timelineFixture({ role: null, visibility: 'public', status: 'published', removedByModerators: true })) }, { videos: [videoFixture({ id: 'a', title: 'Alpha', removedByModerators: true })] });
    renderApp('/watch/t1');
    expect(await screen.findByRole('region', { name: 'Summer Trip: video player' })).toBeInTheDocument();
    const note = screen.getByRole('note');
    expect(note).toHaveTextContent('Hidden by moderators. Everyone else is told it does not exist. Shown here to staff, read-only, for review.');
    expect(within(note).getByRole('link', { name: 'Back to the moderation desk' })).toHaveAttribute('href', '/moderation');
    // The same note as a post's (components/ui/moderation-review-note).
    expect(note).toHaveClass('moderation-review-note');
    // Nothing to like, report, share or save from here.
    expect(screen.queryByRole('button', { name: /like/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Report this video' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    // The hidden video is marked for review, not with its author's "Removed by moderators".
    expect(screen.getByText('Hidden by moderators', { selector: '.player__removed' })).toBeInTheDocument();
    expect(screen.queryByText('Removed by moderators')).not.toBeInTheDocument();
  });

  it('lets staff read the comments of a timeline under review, the hidden ones marked, and write none', async () => {
    const hidden = { ...comment('c2', 'Out of line', 'someone-else'), removedByModerators: true };
    const { requests } = watch(
      {
        'GET /api/timelines/t1': jsonResponse(200, timelineFixture({ role: null, visibility: 'public', status: 'published', removedByModerators: true })),
        'GET /api/videos/a/comments': jsonResponse(200, [comment('c1', 'Lovely light', 'someone-else'), hidden]),
      },
      { videos: [videoFixture({ id: 'a', title: 'Alpha' })] },
    );
    renderApp('/watch/t1');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Comments, 2' }));
    const list = await screen.findByRole('list', { name: 'Comments on Alpha' });
    expect(within(list).getByText('Lovely light')).toBeInTheDocument();
    const marked = within(list).getByText('Out of line').closest('li')!;
    expect(within(marked).getByText('Hidden by moderators')).toBeInTheDocument();
    // Read only: no comment, reply, delete or report; and its like is never asked for.
    expect(screen.queryByRole('button', { name: 'Send comment' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: 'Reply' })).not.toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: /^Report/ })).not.toBeInTheDocument();
    expect(requests.some((r) => r.url.endsWith('/api/videos/a/liked'))).toBe(false);
  });

  it('shows staff a single item the moderators hid under the "Hidden by moderators" note, read-only, and its team "Removed by moderators"', async () => {
    const { requests } = watch({}, { videos: [videoFixture({ id: 'a', title: 'Alpha', removedByModerators: true })] });
    renderApp('/watch/t1');
    expect(await screen.findByRole('region', { name: 'Summer Trip: video player' })).toBeInTheDocument();
    const note = screen.getByRole('note');
    expect(note).toHaveTextContent('Hidden by moderators. Everyone else is told it does not exist. Shown here to staff, read-only, for review.');
    expect(within(note).getByRole('link', { name: 'Back to the moderation desk' })).toHaveAttribute('href', '/moderation');
    expect(screen.getByText('Hidden by moderators', { selector: '.player__removed' })).toBeInTheDocument();
    expect(screen.queryByText('Removed by moderators')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Report this video' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /like/i })).not.toBeInTheDocument();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Comments, 1' }));
    expect(await screen.findByText('Nasty words')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send comment' })).not.toBeInTheDocument();
    expect(requests.some((r) => r.url.endsWith('/api/videos/a/liked'))).toBe(false);
  });

  it('shows its owner their taken-out timeline without the staff note', async () => {
    watch({ 'GET /api/timelines/t1': jsonResponse(200, timelineFixture({ role: 'owner', visibility: 'public', status: 'published', removedByModerators: true })) });
    renderApp('/watch/t1');
    expect(await screen.findByRole('region', { name: 'Summer Trip: video player' })).toBeInTheDocument();
    expect(screen.queryByText(/Back to the moderation desk/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /like/i })).toBeInTheDocument();
  });
});

