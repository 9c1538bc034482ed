import { describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, timelineFixture } from '../testing/api-mocks';
import { videoFixture } from '../testing/media-fixtures';
import { jsonResponse, renderApp, testUser, type RecordedRequest } from '../testing/test-utils';

const grace = { id: '8d1f3c2a-1b2c-4d5e-8f90-1234567890ab', displayName: 'Grace Hopper', username: 'grace', avatar: null };
const me = { id: testUser.id, displayName: 'Ada Lovelace', username: 'ada', avatar: null };
const at = new Date(Date.now() - 5 * 60_000).toISOString();

/** POST /api/reports as the server answers it: 201 the first time, 200 with the first report after. */
function reportsApi() {
  const filed = new Map<string, Record<string, unknown>>();
  return (request: RecordedRequest) => {
    const body = request.body as { contentType: string; contentId: string; reason: string };
    const key = `${body.contentType}/${body.contentId}`;
    const first = filed.get(key);
    if (first) return jsonResponse(200, first);
    const report = { id: `r${filed.size + 1}`, ...body, description: null, status: 'pending', createdAt: new Date().toISOString() };
    filed.set(key, report);
    return jsonResponse(201, report);
  };
}

const reportsSent = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST' && r.url.endsWith('/api/reports')).map((r) => r.body);

/** Picks a reason in the open report dialog and sends it. */
async function sendReport(user: ReturnType<typeof userEvent.setup>, reason: string) {
  const dialog = await screen.findByRole('dialog', { name: 'Report Comment' });
  await user.click(within(dialog).getByRole('radio', { name: reason }));
  await user.click(within(dialog).getByRole('button', { name: 'Report' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report Comment' })).not.toBeInTheDocument());
}

/** Issue 28: Report on other people's comments, in every comment list, through the same report dialog. */
describe('reporting a comment', () => {
  it("on a post: offered for someone else's comment, not one's own; says so when it was already reported", async () => {
    const post = {
      id: 'p1', userId: grace.id, content: 'Stitches, up close', hashtags: [], mentions: [], createdAt: at, updatedAt: at, edited: false,
      likesCount: 0, commentsCount: 2, liked: false, isLiked: false, bookmarked: false, isBookmarked: false, user: grace, sensitive: false, removedByModerators: false,
    };
    const { requests } = mockApi({
      'GET /api/posts/p1': jsonResponse(200, post),
      'GET /api/auth/preferences': jsonResponse(200, { alwaysShowSensitive: true }),
      'GET /api/posts/p1/comments': jsonResponse(200, [
        { id: 'c1', postId: 'p1', content: 'Buy followers cheap', createdAt: at, held: false, pinned: false, user: grace },
        { id: 'c2', postId: 'p1', content: 'Lovely work', createdAt: at, held: false, pinned: false, user: me },
      ]),
      'POST /api/reports': reportsApi(),
    });
    const user = userEvent.setup();
    renderApp('/post/p1');
    await user.click(await screen.findByRole('button', { name: /^Comments/ }));
    const list = await screen.findByRole('list', { name: "Comments on Grace Hopper's post" });
    expect(within(list).queryByRole('button', { name: 'Report comment from Ada Lovelace' })).not.toBeInTheDocument();

    await user.click(within(list).getByRole('button', { name: 'Report comment from Grace Hopper' }));
    await sendReport(user, 'Spam');
    expect(await screen.findByText('Report sent')).toBeInTheDocument();
    expect(reportsSent(requests)).toEqual([{ contentType: 'post_comment', contentId: 'c1', reason: 'spam' }]);

    await user.click(within(list).getByRole('button', { name: 'Report comment from Grace Hopper' }));
    await sendReport(user, 'Harassment or bullying');
    expect(await screen.findByText('Already reported')).toBeInTheDocument();
    expect(screen.getByText('You reported this just now. It is waiting for review.')).toBeInTheDocument();
  });

  it("on a timeline card in the feed: sends the timeline comment's id", async () => {
    const timeline = {
      id: 't1', title: 'Timeline t1', description: '', sensitive: false, videoCount: 3, duration: 75, creatorId: grace.id, creatorName: grace.displayName, creator: grace,
      views: 10, likesCount: 0, commentsCount: 2, activityScore: 1, lastActivityAt: at, createdAt: at, updatedAt: at, coverMediaId: null, isLiked: false, liked: false, isBookmarked: false, bookmarked: false,
    };
    const comment = (id: string, content: string, author: typeof grace) => ({ id, content, timestamp: 0, userId: author.id, userName: author.displayName, createdAt: at, held: false, pinned: false, user: author });
    const { requests } = mockApi({
      'GET /api/timelines': jsonResponse(200, []),
      'GET /api/feed': jsonResponse(200, [{ type: 'timeline', id: 't1', timeline }]),
      'GET /api/timelines/t1/comments': jsonResponse(200, [comment('tc1', 'Rude words', grace), comment('tc2', 'My own note', me)]),
      'POST /api/reports': reportsApi(),
    });
    const user = userEvent.setup();
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'Timeline t1' });
    await user.click(within(card).getByRole('button', { name: 'Comments, 2 comments' }));
    await within(card).findByText('Rude words');
    expect(within(card).queryByRole('button', { name: 'Report comment from Ada Lovelace' })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Report comment from Grace Hopper' }));
    await sendReport(user, 'Hate speech');
    expect(await screen.findByText('Report sent')).toBeInTheDocument();
    expect(reportsSent(requests)).toEqual([{ contentType: 'timeline_comment', contentId: 'tc1', reason: 'hate' }]);
  });

  it("on a video in the player: offered for others' comments and replies, not one's own", async () => {
    jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
    jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    const comment = (id: string, content: string, author: typeof grace, replies: unknown[] = []) => ({
      id, videoId: 'a', timelineId: 't1', parentId: null, content, userId: author.id, userName: author.displayName, createdAt: at, user: author,
      replies, repliesCount: replies.length, repliesCursor: null, likesCount: 0, held: false, pinned: false,
    });
    const { requests } = mockApi({
      'GET /api/timelines/t1': jsonResponse(200, timelineFixture({ role: null, visibility: 'public', status: 'published' })),
      'GET /api/timelines/t1/videos': jsonResponse(200, [videoFixture({ id: 'a', title: 'Alpha' })]),
      'GET /api/timelines': jsonResponse(200, []),
      'GET /api/videos/a/liked': jsonResponse(200, { isLiked: false, liked: false, likesCount: 0 }),
      'GET /api/videos/a/comments': jsonResponse(200, [comment('vc1', 'Nasty words', grace, [{ ...comment('vc2', 'Agreed, nasty', me), parentId: 'vc1' }])]),
      'GET /api/moderation/role': jsonResponse(200, { role: null }),
      'POST /api/reports': reportsApi(),
    });
    const user = userEvent.setup();
    renderApp('/watch/t1');
    await user.click(await screen.findByRole('button', { name: /^Comments/ }));
    await screen.findByText('Agreed, nasty');
    expect(screen.queryByRole('button', { name: 'Report comment from Ada Lovelace' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Report comment from Grace Hopper' }));
    await sendReport(user, 'Violence');
    expect(await screen.findByText('Report sent')).toBeInTheDocument();
    expect(reportsSent(requests)).toEqual([{ contentType: 'video_comment', contentId: 'vc1', reason: 'violence' }]);
    // The comments stay open behind the report dialog.
    expect(screen.getByRole('dialog', { name: 'Comments' })).toBeInTheDocument();
  });
});
