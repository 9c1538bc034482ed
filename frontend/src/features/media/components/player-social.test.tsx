import { describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { errorResponse, mockApi, noContent, timelineFixture } from '../../../testing/api-mocks';
import { videoFixture } from '../../../testing/media-fixtures';
import { jsonResponse, renderApp, testUser } from '../../../testing/test-utils';
import { playerCount } from './player-social';

const comment = (id: string, content: string, userId: string, replies: unknown[] = []) => ({
  id, videoId: 'a', timelineId: 't1', parentId: null, content, userId, userName: userId === testUser.id ? 'Ada Lovelace' : 'Grace Hopper',
  createdAt: new Date(Date.now() - 120_000).toISOString(),
  user: { id: userId, displayName: userId === testUser.id ? 'Ada Lovelace' : 'Grace Hopper', username: 'x', avatar: null },
  replies, repliesCount: replies.length, repliesCursor: null as string | null, likesCount: 0,
});

function watch(routes: Parameters<typeof mockApi>[0] = {}) {
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  return mockApi({
    'GET /api/timelines/t1': jsonResponse(200, timelineFixture()),
    'GET /api/timelines/t1/videos': jsonResponse(200, [videoFixture({ id: 'a', title: 'Alpha' })]),
    'GET /api/timelines': jsonResponse(200, []),
    ...routes,
  });
}

describe("the player's like and comment buttons", () => {
  it('caps counts at 99+', () => {
    expect([0, 99, 100, 12_000].map(playerCount)).toEqual(['0', '99', '99+', '99+']);
  });

  it('likes at once and takes the like back when the server refuses', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let refuse = false;
    const { requests } = watch({
      'GET /api/videos/a/liked': jsonResponse(200, { isLiked: false, liked: false, likesCount: 41 }),
      'GET /api/videos/a/comments': jsonResponse(200, []),
      'POST /api/videos/a/like': () => (refuse ? errorResponse(500, 'down') : jsonResponse(200, { isLiked: true, liked: true, likesCount: 42 })),
      'DELETE /api/videos/a/like': () => errorResponse(500, 'down'),
    });
    renderApp('/watch/t1');
    const like = await screen.findByRole('button', { name: 'Like this video, 41 likes' });
    expect(like).toHaveTextContent('41');
    expect(like).toHaveAttribute('aria-pressed', 'false');
    act(() => like.click());
    expect(await screen.findByRole('button', { name: 'Unlike this video, 42 likes' })).toHaveAttribute('aria-pressed', 'true');
    refuse = true;
    act(() => screen.getByRole('button', { name: 'Unlike this video, 42 likes' }).click());
    // Shown at once, then put back when the server answers 500.
    expect(await screen.findByRole('button', { name: 'Unlike this video, 42 likes' })).toBeInTheDocument();
    expect(requests.filter((r) => r.url.endsWith('/api/videos/a/like')).map((r) => r.method)).toEqual(['POST', 'DELETE']);
  });

  it('opens the comments (pausing the video), replies, deletes only its own, and resumes on close', async () => {
    const play = jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    const pause = jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    jest.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(() => false);
    let list = [comment('c1', 'Lovely light', 'someone-else', [comment('r1', 'Thanks!', testUser.id)]), comment('c2', 'Mine too', testUser.id)];
    const { requests } = watch({
      'GET /api/videos/a/liked': jsonResponse(200, { isLiked: false, liked: false, likesCount: 0 }),
      'GET /api/videos/a/comments': () => jsonResponse(200, list),
      'POST /api/videos/a/comments/c1/replies': () => {
        list = [{ ...list[0]!, replies: [...list[0]!.replies, comment('r2', 'Where is it?', testUser.id)] }, list[1]!];
        return jsonResponse(201, comment('r2', 'Where is it?', testUser.id));
      },
      'DELETE /api/videos/a/comments/c2': () => {
        list = [list[0]!];
        return noContent();
      },
    });
    renderApp('/watch/t1');
    const open = await screen.findByRole('button', { name: 'Comments, 3' });
    play.mockClear();
    act(() => open.click());
    const dialog = await screen.findByRole('dialog', { name: 'Comments' });
    expect(pause).toHaveBeenCalled();
    expect(within(dialog).getByText('Lovely light')).toBeInTheDocument();
    expect(within(dialog).getAllByText('2 minutes ago')).toHaveLength(3);
    // Only one's own comments can be deleted.
    expect(within(dialog).getAllByRole('button', { name: /^Delete your comment/ })).toHaveLength(2);

    act(() => within(dialog).getAllByRole('button', { name: 'Reply' })[0]!.click());
    fireEvent.change(within(dialog).getByPlaceholderText('Write a reply...'), { target: { value: '  Where is it?  ' } });
    act(() => within(dialog).getByRole('button', { name: 'Send reply' }).click());
    expect(await within(dialog).findByText('Where is it?')).toBeInTheDocument();
    expect(requests.find((r) => r.url.endsWith('/replies'))?.body).toEqual({ content: 'Where is it?' });

    act(() => within(dialog).getByRole('button', { name: 'Delete your comment: Mine too' }).click());
    await waitFor(() => expect(within(dialog).queryByText('Mine too')).not.toBeInTheDocument());

    act(() => within(dialog).getByRole('button', { name: 'Close' }).click());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(play).toHaveBeenCalled();
  });

  it('shows the first replies and loads the others a page at a time with "View N more replies"', async () => {
    jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    const replies = Array.from({ length: 25 }, (_, i) => comment(`r${i + 1}`, `Reply number ${i + 1}`, 'someone-else'));
    const top = { ...comment('c1', 'Busy thread', 'someone-else', replies.slice(0, 3)), repliesCount: 25, repliesCursor: 'after-r3' };
    const { requests } = watch({
      'GET /api/videos/a/liked': jsonResponse(200, { isLiked: false, liked: false, likesCount: 0 }),
      'GET /api/videos/a/comments': jsonResponse(200, [top]),
      'GET /api/videos/a/comments/c1/replies': (request: { url: string }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        return cursor === 'after-r3'
          ? jsonResponse(200, replies.slice(3, 23), { headers: { 'Content-Type': 'application/json', 'X-Next-Cursor': 'after-r23' } })
          : jsonResponse(200, replies.slice(23));
      },
    });
    renderApp('/watch/t1');
    const open = await screen.findByRole('button', { name: /^Comments, / });
    act(() => open.click());
    const dialog = await screen.findByRole('dialog', { name: 'Comments' });
    await within(dialog).findByText('Reply number 3');
    expect(within(dialog).queryByText('Reply number 4')).not.toBeInTheDocument();
    act(() => within(dialog).getByRole('button', { name: 'View 22 more replies' }).click());
    expect(await within(dialog).findByText('Reply number 23')).toBeInTheDocument();
    expect(within(dialog).queryByText('Reply number 24')).not.toBeInTheDocument();
    act(() => within(dialog).getByRole('button', { name: 'View 2 more replies' }).click());
    expect(await within(dialog).findByText('Reply number 25')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: /more repl/ })).not.toBeInTheDocument());
    expect(requests.filter((r) => r.url.includes('/replies')).map((r) => new URL(r.url).searchParams.get('cursor'))).toEqual(['after-r3', 'after-r23']);
  });

  it('is not shown to someone signed out', async () => {
    mockApi(
      {
        'GET /api/timelines/t1': jsonResponse(200, timelineFixture()),
        'GET /api/timelines/t1/videos': jsonResponse(200, [videoFixture({ id: 'a', title: 'Alpha' })]),
      },
      { signedIn: false },
    );
    renderApp('/watch/t1');
    // Signed out, /watch asks to sign in first; the buttons never appear.
    await waitFor(() => expect(screen.queryByRole('region', { name: /video player/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: /Like this video/ })).not.toBeInTheDocument();
  });
});
