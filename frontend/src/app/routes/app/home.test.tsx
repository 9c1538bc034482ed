import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FeedItem, FeedTimeline, Post } from '../../../features/feed/api/types';
import { adBefore } from '../../../features/feed/lib/ads';
import { errorResponse, mockApi, noContent } from '../../../testing/api-mocks';
import { jsonResponse, renderApp, testUser, type RecordedRequest } from '../../../testing/test-utils';

const other = { id: '8d1f3c2a-1b2c-4d5e-8f90-1234567890ab', displayName: 'Grace Hopper', username: 'grace', avatar: null };
const me = { id: testUser.id, displayName: testUser.displayName, username: testUser.username, avatar: null };
const recently = new Date(Date.now() - 5 * 60_000).toISOString();

function post(id: string, overrides: Partial<Post> = {}): Post {
  const author = overrides.user ?? other;
  return {
    id,
    userId: author.id,
    content: `Post ${id}`,
    hashtags: [],
    mentions: [],
    createdAt: recently,
    updatedAt: recently,
    edited: false,
    likesCount: 0,
    commentsCount: 0,
    liked: false,
    isLiked: false,
    bookmarked: false,
    isBookmarked: false,
    user: author,
    sensitive: false,
    removedByModerators: false,
    ...overrides,
  };
}

function timeline(id: string, overrides: Partial<FeedTimeline> = {}): FeedTimeline {
  return {
    id,
    title: `Timeline ${id}`,
    description: '',
    sensitive: false,
    videoCount: 3,
    duration: 75,
    creatorId: other.id,
    creatorName: other.displayName,
    creator: other,
    views: 10,
    likesCount: 4,
    commentsCount: 0,
    activityScore: 1,
    lastActivityAt: recently,
    createdAt: recently,
    updatedAt: recently,
    coverMediaId: null,
    coverAltText: null,
    isLiked: false,
    liked: false,
    isBookmarked: false,
    bookmarked: false,
    ...overrides,
  };
}

const postItem = (value: Post): FeedItem => ({ type: 'post', id: value.id, post: value });
const timelineItem = (value: FeedTimeline): FeedItem => ({ type: 'timeline', id: value.id, timeline: value });

const feedPage = (items: FeedItem[], nextCursor?: string) =>
  jsonResponse(200, items, { headers: { 'Content-Type': 'application/json', ...(nextCursor ? { 'X-Next-Cursor': nextCursor } : {}) } });

/** The home page's side lists: empty unless a test says otherwise. */
const sideLists = { 'GET /api/timelines': jsonResponse(200, []) };

/** IntersectionObservers the page made, so a test can scroll one into view. */
let observers: { callback: IntersectionObserverCallback; targets: Element[] }[] = [];

function scrollIntoView(target: Element) {
  for (const observer of observers.filter((candidate) => candidate.targets.includes(target))) {
    act(() =>
      observer.callback(
        [{ target, isIntersecting: true, intersectionRatio: 1 } as unknown as IntersectionObserverEntry],
        observer as unknown as IntersectionObserver,
      ),
    );
  }
}

beforeEach(() => {
  observers = [];
  globalThis.IntersectionObserver = class {
    private readonly entry: { callback: IntersectionObserverCallback; targets: Element[] };
    constructor(callback: IntersectionObserverCallback) {
      this.entry = { callback, targets: [] };
      observers.push(this.entry);
    }
    observe(target: Element) {
      this.entry.targets.push(target);
    }
    unobserve() {}
    disconnect() {
      this.entry.targets = [];
    }
    takeRecords() {
      return [];
    }
  } as unknown as typeof IntersectionObserver;
});

const feedArticles = () => within(screen.getByRole('feed')).getAllByRole('article');

/**
 * The feed once all of its first page has rendered: the list comes just after the column's first
 * render (an empty, busy one stands in for it), and the cards past the first few in a transition.
 */
async function renderedFeed(): Promise<HTMLElement> {
  await waitFor(() => expect(screen.getByRole('feed')).toHaveAttribute('aria-busy', 'false'));
  return screen.getByRole('feed');
}

describe('home feed', () => {
  it('shows the loading and empty states', async () => {
    let answer: (response: Response) => void = () => undefined;
    mockApi({ ...sideLists, 'GET /api/feed': () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderApp('/');
    expect(await screen.findByText('Loading feed...')).toBeInTheDocument();
    answer(feedPage([]));
    expect(await screen.findByText('No posts or timelines yet. Create your first timeline or share a post!')).toBeInTheDocument();
  });

  it('rejects a blank post with a toast, and puts a shared post at the top of the feed', async () => {
    const { requests } = mockApi({
      ...sideLists,
      'GET /api/feed': feedPage([postItem(post('p1'))]),
      'POST /api/posts': (request: RecordedRequest) =>
        jsonResponse(201, post('p-new', { content: (request.body as { content: string }).content, user: me })),
    });
    const user = userEvent.setup();
    renderApp('/');
    await screen.findByText('Post p1');
    const box = screen.getByRole('textbox', { name: 'What timeline are you working on today?' });

    await user.type(box, '   ');
    await user.click(within(screen.getByRole('form', { name: 'Share a post' })).getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Please enter something to share')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    await user.clear(box);
    await user.type(box, '  Editing the summer trip  {Enter}');
    await waitFor(() => expect(feedArticles()[0]).toHaveTextContent('Editing the summer trip'));
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({ content: 'Editing the summer trip' });
    expect(box).toHaveValue('');
    expect(await screen.findByText('Your post has been shared!')).toBeInTheDocument();
    expect(feedArticles()).toHaveLength(2);
  });

  it("says 'Failed to share post: {message}' and keeps the text when the server refuses it", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({ ...sideLists, 'GET /api/feed': feedPage([]), 'POST /api/posts': errorResponse(400, 'Content must be 5000 characters or fewer') });
    const user = userEvent.setup();
    renderApp('/');
    const box = await screen.findByRole('textbox', { name: 'What timeline are you working on today?' });
    await user.type(box, 'Too long, says the server{Enter}');
    expect(await screen.findByText('Failed to share post: Content must be 5000 characters or fewer')).toBeInTheDocument();
    expect(box).toHaveValue('Too long, says the server');
  });

  it('puts a sponsored block before the items at indices 4, 8, 12, ...: hero at 12, preview at 8, featured otherwise', async () => {
    expect([0, 1, 3, 4, 8, 12, 16, 20, 24].map(adBefore)).toEqual([null, null, null, 'featured', 'preview', 'hero', 'preview', 'featured', 'hero']);

    const items = Array.from({ length: 13 }, (_, index) => postItem(post(`p${index}`)));
    mockApi({ ...sideLists, 'GET /api/feed': feedPage(items) });
    renderApp('/');
    const feed = await renderedFeed();
    const sequence = Array.from(feed.children).map((child) =>
      child.tagName === 'ASIDE' ? `ad:${child.getAttribute('data-ad-kind')}` : (child.querySelector('.post-card__content')?.textContent?.replace('Post ', '') ?? '?'),
    );
    expect(sequence).toEqual([
      'p0', 'p1', 'p2', 'p3', 'ad:featured', 'p4', 'p5', 'p6', 'p7', 'ad:preview', 'p8', 'p9', 'p10', 'p11', 'ad:hero', 'p12',
    ]);
    for (const ad of within(feed).getAllByRole('complementary')) expect(ad).toHaveTextContent('Sponsored');
  });

  it('remembers a dismissed sponsored block', async () => {
    const items = Array.from({ length: 5 }, (_, index) => postItem(post(`p${index}`)));
    mockApi({ ...sideLists, 'GET /api/feed': feedPage(items) });
    const user = userEvent.setup();
    const first = renderApp('/');
    const feed = await renderedFeed();
    const ad = within(feed).getByRole('complementary');
    await user.click(within(ad).getByRole('button', { name: /^Dismiss/ }));
    expect(within(feed).queryByRole('complementary')).not.toBeInTheDocument();
    first.unmount();

    renderApp('/');
    expect(within(await renderedFeed()).queryByRole('complementary')).not.toBeInTheDocument();
  });

  it('likes a timeline at once and takes the like back when the server refuses', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let release: () => void = () => undefined;
    mockApi({
      ...sideLists,
      'GET /api/feed': feedPage([timelineItem(timeline('t1', { likesCount: 4 }))]),
      'POST /api/timelines/t1/like': () => new Promise<Response>((resolve) => (release = () => resolve(errorResponse(500, 'boom')))),
    });
    const user = userEvent.setup();
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'Timeline t1' });
    expect(within(card).getByText('Timeline • 1:15')).toBeInTheDocument();
    const like = within(card).getByRole('button', { name: 'Like, 4 likes' });
    expect(like).toHaveAttribute('aria-pressed', 'false');

    await user.click(like);
    expect(within(card).getByRole('button', { name: 'Like, 5 likes' })).toHaveAttribute('aria-pressed', 'true');

    release();
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Like, 4 likes' })).toHaveAttribute('aria-pressed', 'false'));
  });

  it("describes a timeline card's cover video with its description, and only when it has one", async () => {
    mockApi({
      ...sideLists,
      'GET /api/feed': feedPage([
        timelineItem(timeline('t1', { coverMediaId: 'c1', coverAltText: 'A heron lands on the lake at dawn' })),
        timelineItem(timeline('t2', { coverMediaId: 'c2', coverAltText: null })),
      ]),
    });
    renderApp('/');
    const described = await screen.findByRole('article', { name: 'Timeline t1' });
    const cover = within(described).getByLabelText('Preview of Timeline t1');
    expect(cover.tagName).toBe('VIDEO');
    expect(cover).toHaveAccessibleDescription('A heron lands on the lake at dawn');
    // Without a description the preview keeps its name alone.
    const plain = within(await screen.findByRole('article', { name: 'Timeline t2' })).getByLabelText('Preview of Timeline t2');
    expect(plain).not.toHaveAttribute('aria-describedby');
    expect(plain).toHaveAccessibleDescription('');
  });

  it('comments on a timeline card: the comment shows, the box empties, and later likes and bookmarks still reach the server', async () => {
    const errors = jest.spyOn(console, 'error');
    const stored: unknown[] = [];
    const { requests } = mockApi({
      ...sideLists,
      'GET /api/feed': feedPage([timelineItem(timeline('t1', { commentsCount: 0 })), timelineItem(timeline('t2'))]),
      'GET /api/timelines/t1/comments': () => jsonResponse(200, stored),
      'POST /api/timelines/t1/comments': (request: RecordedRequest) => {
        const comment = { id: `c${stored.length + 1}`, content: (request.body as { content: string }).content, timestamp: 0, userId: me.id, userName: me.displayName, createdAt: new Date().toISOString(), user: me };
        stored.unshift(comment);
        return jsonResponse(201, comment);
      },
      'POST /api/timelines/t1/like': jsonResponse(200, { liked: true, isLiked: true, likesCount: 5 }),
      'POST /api/timelines/t2/bookmark': jsonResponse(200, { bookmarked: true, isBookmarked: true }),
    });
    const user = userEvent.setup();
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'Timeline t1' });
    await user.click(within(card).getByRole('button', { name: 'Comments, 0 comments' }));
    expect(await within(card).findByText('No comments yet.')).toBeInTheDocument();
    const box = within(card).getByPlaceholderText('Write a comment...');
    await user.type(box, '  Lovely light in the second clip {Enter}');

    expect(await within(card).findByText('Lovely light in the second clip')).toBeInTheDocument();
    expect(within(card).queryByText('No comments yet.')).not.toBeInTheDocument();
    expect(box).toHaveValue('');
    expect(within(card).getByRole('button', { name: 'Comments, 1 comment' })).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST' && request.url.endsWith('/comments'))?.body).toEqual({ content: 'Lovely light in the second clip' });

    // The feed still works: a like and a bookmark are sent, on this card and another one.
    await user.click(within(card).getByRole('button', { name: 'Like, 4 likes' }));
    const other = screen.getByRole('article', { name: 'Timeline t2' });
    await user.click(within(other).getByRole('button', { name: 'Bookmark' }));
    await waitFor(() => expect(requests.filter((request) => request.method === 'POST').map((request) => new URL(request.url).pathname)).toEqual([
      '/api/timelines/t1/comments',
      '/api/timelines/t1/like',
      '/api/timelines/t2/bookmark',
    ]));
    expect(await within(card).findByRole('button', { name: 'Like, 5 likes' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(other).getByRole('button', { name: 'Bookmark' })).toHaveAttribute('aria-pressed', 'true');
    expect(errors).not.toHaveBeenCalled();
  });

  it('keeps a like the server confirms, with its count', async () => {
    mockApi({
      ...sideLists,
      'GET /api/feed': feedPage([postItem(post('p1', { likesCount: 2 }))]),
      'POST /api/posts/p1/like': jsonResponse(200, { liked: true, isLiked: true, likesCount: 7 }),
    });
    const user = userEvent.setup();
    renderApp('/');
    await screen.findByText('Post p1');
    await user.click(screen.getByRole('button', { name: 'Like, 2 likes' }));
    expect(await screen.findByRole('button', { name: 'Like, 7 likes' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('offers Edit Post, Comment settings and Delete Post to the author only (Report Post to others), one post in edit mode at a time', async () => {
    const { requests } = mockApi({
      ...sideLists,
      'GET /api/feed': feedPage([postItem(post('mine-1', { user: me })), postItem(post('mine-2', { user: me })), postItem(post('theirs'))]),
      'PUT /api/posts/mine-1': (request: RecordedRequest) =>
        jsonResponse(200, post('mine-1', { user: me, edited: true, content: (request.body as { content: string }).content })),
    });
    const user = userEvent.setup();
    renderApp('/');
    await screen.findByText('Post theirs');
    const [first, second, theirs] = feedArticles();
    // Someone else's post has Report Post alone.
    await user.click(within(theirs!).getByRole('button', { name: 'Post options' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['Report Post']);
    await user.keyboard('{Escape}');

    await user.click(within(first!).getByRole('button', { name: 'Post options' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Edit Post', 'Comment settings', 'Delete Post']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Edit Post' }));
    const editor = within(first!).getByRole('textbox', { name: 'Edit post' });

    // Opening a second editor closes the first.
    await user.click(within(second!).getByRole('button', { name: 'Post options' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit Post' }));
    expect(within(first!).queryByRole('textbox', { name: 'Edit post' })).not.toBeInTheDocument();
    await user.click(within(second!).getByRole('button', { name: 'Cancel' }));

    await user.click(within(first!).getByRole('button', { name: 'Post options' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit Post' }));
    const again = within(first!).getByRole('textbox', { name: 'Edit post' });
    expect(again).not.toBe(editor);
    await user.clear(again);
    await user.type(again, '   ');
    expect(within(first!).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(again);
    await user.type(again, '  Updated words ');
    await user.click(within(first!).getByRole('button', { name: 'Save' }));
    expect(await within(first!).findByText('Updated words')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({ content: 'Updated words' });
  });

  it('asks before deleting a post, then removes it', async () => {
    const { requests } = mockApi({
      ...sideLists,
      'GET /api/feed': feedPage([postItem(post('mine', { user: me })), postItem(post('theirs'))]),
      'DELETE /api/posts/mine': () => noContent(),
    });
    const user = userEvent.setup();
    renderApp('/');
    await screen.findByText('Post theirs');
    const [mine] = feedArticles();
    await user.click(within(mine!).getByRole('button', { name: 'Post options' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete Post' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Are you sure you want to delete this post?');
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Post mine')).not.toBeInTheDocument());
    expect(screen.getByText('Post theirs')).toBeInTheDocument();
  });

  it('shows Timeline Settings to the creator only, and a reported timeline leaves the feed', async () => {
    const { requests } = mockApi({
      ...sideLists,
      'GET /api/feed': feedPage([timelineItem(timeline('mine', { creatorId: me.id, creator: me })), timelineItem(timeline('theirs'))]),
      'POST /api/reports': jsonResponse(201, { id: 'r1' }),
    });
    const user = userEvent.setup();
    renderApp('/');
    await screen.findByRole('article', { name: 'Timeline theirs' });

    await user.click(screen.getByRole('button', { name: 'Options for Timeline mine' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['View Timeline', 'Save to collection', 'Timeline Settings', 'Report Post']);
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Options for Timeline theirs' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['View Timeline', 'Save to collection', 'Report Post']);
    await user.click(screen.getByRole('menuitem', { name: 'Report Post' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report Timeline' });
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));

    await waitFor(() => expect(screen.queryByRole('article', { name: 'Timeline theirs' })).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'Timeline mine' })).toBeInTheDocument();
    expect(requests.find((request) => request.url.endsWith('/api/reports'))?.body).toEqual({ contentType: 'timeline', contentId: 'theirs', reason: 'spam' });
  });

  it('asks for the next page with the cursor once the end of the feed scrolls into view', async () => {
    const { requests } = mockApi({
      ...sideLists,
      'GET /api/feed': (request: RecordedRequest) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        return cursor === 'c2' ? feedPage([postItem(post('p2'))]) : feedPage([postItem(post('p1'))], 'c2');
      },
    });
    renderApp('/');
    await screen.findByText('Post p1');
    const feedRequests = () => requests.filter((request) => new URL(request.url).pathname === '/api/feed');
    expect(feedRequests()).toHaveLength(1);
    expect(Object.fromEntries(new URL(feedRequests()[0]!.url).searchParams)).toEqual({ tab: 'for-you', limit: '20' });

    const sentinel = document.querySelector('.feed-sentinel');
    expect(sentinel).not.toBeNull();
    scrollIntoView(sentinel!);
    expect(await screen.findByText('Post p2')).toBeInTheDocument();
    expect(new URL(feedRequests()[1]!.url).searchParams.get('cursor')).toBe('c2');
    expect(feedArticles()).toHaveLength(2);
  });

  it('fills the side columns: trending, your activity with the real following count, recent and suggested', async () => {
    const list = Array.from({ length: 14 }, (_, index) => ({
      id: `t${index}`,
      title: `Trip ${index}`,
      videoCount: index,
      // One of the viewer's own is unlisted: like the empty one (t0) it trends for nobody.
      visibility: index === 2 ? 'unlisted' : 'public',
      status: 'published',
      views: index * 10,
      creatorId: index % 2 === 0 ? me.id : other.id,
      creatorName: index % 2 === 0 ? me.displayName : other.displayName,
      createdAt: new Date(Date.UTC(2025, 2, 1 + index)).toISOString(),
      updatedAt: new Date(Date.UTC(2025, 2, 1 + index)).toISOString(),
      lastActivityAt: new Date(Date.UTC(2025, 2, 1 + index)).toISOString(),
    }));
    const { requests } = mockApi({
      'GET /api/auth/me': jsonResponse(200, { ...testUser, followersCount: 3, followingCount: 42 }),
      'GET /api/timelines': jsonResponse(200, list),
      [`GET /api/users/${me.id}/profile`]: jsonResponse(200, { ...testUser, timelinesCount: 2, totalViews: 1200, followersCount: 3, followingCount: 42 }),
      'GET /api/feed': feedPage([]),
    });
    renderApp('/');
    const trending = await screen.findByRole('list', { name: 'Trending timelines' });
    expect(within(trending).getAllByRole('link')).toHaveLength(12);
    expect(within(trending).getAllByRole('link')[0]).toHaveTextContent('TTrip 11 video');
    expect(within(trending).queryByText('Trip 0', { exact: true })).toBeNull();
    expect(within(trending).queryByText('Trip 2', { exact: true })).toBeNull();
    expect(within(trending).getAllByRole('link').at(-1)).toHaveTextContent('Trip 13');

    const activity = screen.getByRole('region', { name: 'Your Activity' });
    const value = (label: string) => within(activity).getByText(label).parentElement?.querySelector('dd')?.textContent;
    await waitFor(() => expect(value('Timelines Created')).toBe('2'));
    expect(value('Total Views')).toBe('1,200');
    expect(value('Following')).toBe('42');
    // Spec 000 asks for /api/my-timelines only while the picker is open.
    expect(requests.some((request) => new URL(request.url).pathname === '/api/my-timelines')).toBe(false);

    const recent = within(screen.getByRole('list', { name: 'Recent activity' })).getAllByRole('link');
    expect(recent.map((link) => link.getAttribute('href'))).toEqual(['/watch/t13', '/watch/t12', '/watch/t11', '/watch/t10', '/watch/t9', '/watch/t8']);
    const suggested = within(screen.getByRole('list', { name: 'Suggested timelines' })).getAllByRole('link');
    expect(suggested.map((link) => link.getAttribute('href'))).toEqual(['/watch/t1', '/watch/t3', '/watch/t5', '/watch/t7', '/watch/t9', '/watch/t11']);
    const actions = screen.getByRole('region', { name: 'Quick Actions' });
    expect(within(actions).getByRole('link', { name: 'Create Timeline' })).toHaveAttribute('href', '/studio?create=true');
    expect(within(actions).getByRole('link', { name: 'Creator Studio' })).toHaveAttribute('href', '/studio');
  });

  it('shares a timeline: copies its link with the spec toast and counts the share', async () => {
    const writeText = jest.fn(async (_text: string) => undefined);
    const { requests } = mockApi({
      ...sideLists,
      'GET /api/feed': feedPage([timelineItem(timeline('t1'))]),
      'POST /api/timelines/t1/shares': jsonResponse(201, {}),
    });
    const user = userEvent.setup();
    // After setup: user-event puts its own clipboard in place.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'Timeline t1' });
    await user.click(within(card).getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share Timeline' });
    expect(within(dialog).getByRole('link', { name: 'Twitter' }).getAttribute('href')).toContain('twitter.com/intent/tweet');
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/watch/t1`);
    expect(await screen.findByText('Link copied!')).toBeInTheDocument();
    expect(screen.getByText('Timeline link has been copied to your clipboard.')).toBeInTheDocument();
    await waitFor(() => expect(requests.find((request) => request.url.endsWith('/shares'))?.body).toEqual({ channel: 'link' }));
  });

  it('shares a post: copies content and link, says so, and cuts the LinkedIn text to 200 characters', async () => {
    const writeText = jest.fn(async (_text: string) => {
      throw new Error('denied');
    });
    mockApi({ ...sideLists, 'GET /api/feed': feedPage([postItem(post('p1', { content: 'x'.repeat(250) }))]) });
    const user = userEvent.setup();
    // After setup: user-event puts its own clipboard in place.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/');
    const card = (await screen.findAllByRole('article'))[0]!;
    await user.click(within(card).getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share Post' });
    const linkedIn = new URL(within(dialog).getByRole('link', { name: 'LinkedIn' }).getAttribute('href')!);
    expect(linkedIn.searchParams.get('summary')).toBe('x'.repeat(200));
    await user.click(within(dialog).getByRole('button', { name: 'Copy post and link' }));
    expect(await screen.findByText('Failed to copy')).toBeInTheDocument();
    expect(screen.getByText('Could not copy to clipboard.')).toBeInTheDocument();
  });
});
