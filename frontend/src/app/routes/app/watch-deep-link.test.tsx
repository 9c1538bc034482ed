import { describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, timelineFixture } from '../../../testing/api-mocks';
import { videoFixture } from '../../../testing/media-fixtures';
import { jsonResponse, renderApp, testUser } from '../../../testing/test-utils';

/** A video element whose clock the test holds: `seeks` lists each time the player set. */
function clock(duration = 75) {
  let now = 0;
  const seeks: number[] = [];
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockImplementation(() => duration);
  jest.spyOn(HTMLMediaElement.prototype, 'currentTime', 'get').mockImplementation(() => now);
  jest.spyOn(HTMLMediaElement.prototype, 'currentTime', 'set').mockImplementation((value: number) => {
    now = value;
    seeks.push(value);
  });
  return {
    seeks,
    set: (value: number) => {
      now = value;
    },
    loaded: () => act(() => void document.querySelector('video')!.dispatchEvent(new Event('loadedmetadata'))),
    tick: () => act(() => void document.querySelector('video')!.dispatchEvent(new Event('timeupdate'))),
  };
}

const three = [
  videoFixture({ id: 'a', title: 'Alpha' }),
  videoFixture({ id: 'b', title: 'Bravo', altText: 'A ride through town.\n0:00 Setting off\n0:30 The bridge\n1:00 Home' } as Partial<ReturnType<typeof videoFixture>>),
  videoFixture({ id: 'c', title: 'Charlie' }),
];

function watch(routes: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/timelines/t1': jsonResponse(200, timelineFixture()),
    'GET /api/timelines/t1/videos': jsonResponse(200, three),
    'GET /api/timelines': jsonResponse(200, []),
    'GET /api/videos/a/liked': jsonResponse(200, { isLiked: false, liked: false, likesCount: 0 }),
    'GET /api/videos/b/liked': jsonResponse(200, { isLiked: false, liked: false, likesCount: 0 }),
    'GET /api/videos/c/liked': jsonResponse(200, { isLiked: false, liked: false, likesCount: 0 }),
    'GET /api/videos/a/comments': jsonResponse(200, []),
    'GET /api/videos/b/comments': jsonResponse(200, []),
    'GET /api/videos/c/comments': jsonResponse(200, []),
    'GET /api/videos/a/captions': jsonResponse(200, []),
    'GET /api/videos/b/captions': jsonResponse(200, []),
    'GET /api/videos/c/captions': jsonResponse(200, []),
    ...routes,
  });
}

describe('links into the player (?item=&t=)', () => {
  it('opens the item counted from 1 at the second given, once its video is loaded', async () => {
    const video = clock();
    watch();
    renderApp('/watch/t1?item=3&t=42');
    expect(await screen.findByText('3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Video 3 of 3: Charlie' })).toHaveAttribute('aria-current', 'true');
    video.loaded();
    expect(video.seeks).toEqual([42]);
    // Only the first load: the same video loading again (a new quality) does not jump back.
    video.set(50);
    video.loaded();
    expect(video.seeks).toEqual([42]);
    expect(screen.queryByText('That part of the timeline is not here')).not.toBeInTheDocument();
  });

  it('starts from the beginning, and says so, for an item the timeline does not have', async () => {
    const video = clock();
    watch();
    renderApp('/watch/t1?item=9&t=42');
    expect(await screen.findByText('1 of 3')).toBeInTheDocument();
    expect(await screen.findByText('That part of the timeline is not here')).toBeInTheDocument();
    video.loaded();
    expect(video.seeks).toEqual([]);
  });

  it('starts the item from its start, and says so, for a time past its end or not a time', async () => {
    const video = clock();
    watch();
    const { unmount } = renderApp('/watch/t1?item=2&t=600');
    expect(await screen.findByText('2 of 3')).toBeInTheDocument();
    expect(await screen.findByText('That time is not in this video')).toBeInTheDocument();
    expect(screen.getByText('Playing item 2 from its start instead.')).toBeInTheDocument();
    video.loaded();
    expect(video.seeks).toEqual([]);
    unmount();
    renderApp('/watch/t1?item=2&t=soon');
    expect(await screen.findByText('2 of 3')).toBeInTheDocument();
    expect((await screen.findAllByText('That time is not in this video')).length).toBeGreaterThan(0);
  });

  it('shares the item and second on screen when "Start at current time" is ticked', async () => {
    const video = clock();
    const writeText = jest.fn(async (_text: string) => undefined);
    watch({ 'POST /api/timelines/t1/shares': jsonResponse(201, {}) });
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/watch/t1?item=2');
    expect(await screen.findByText('2 of 3')).toBeInTheDocument();
    video.set(42.6);
    video.tick();
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share Timeline' });
    const start = within(dialog).getByRole('checkbox', { name: 'Start at current time' });
    expect(start).not.toBeChecked();
    expect(within(dialog).getByText('Item 2 at 0:42')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenLastCalledWith(`${window.location.origin}/watch/t1`);
    await user.click(start);
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenLastCalledWith(`${window.location.origin}/watch/t1?item=2&t=42`);
    expect(within(dialog).getByRole('link', { name: 'Email' }).getAttribute('href')).toContain(encodeURIComponent('/watch/t1?item=2&t=42'));
  });
});

describe('links into an embedded player', () => {
  it('start at the item and second given, as on this site', async () => {
    const video = clock();
    watch({ 'GET /api/timelines/t1': jsonResponse(200, timelineFixture({ visibility: 'public', status: 'published' })) });
    renderApp('/embed/timeline/t1?item=2&t=30');
    expect(await screen.findByText('2 of 3')).toBeInTheDocument();
    video.loaded();
    expect(video.seeks).toEqual([30]);
  });
});

describe('chapters', () => {
  it("lists the timeline's items and a video's own chapters, and jumps to one", async () => {
    const video = clock();
    watch();
    renderApp('/watch/t1');
    expect(await screen.findByText('1 of 3')).toBeInTheDocument();
    const toggle = await screen.findByRole('button', { name: 'Chapters' });
    fireEvent.click(toggle);
    const panel = screen.getByRole('region', { name: 'Chapters' });
    // Items start on the timeline's clock: 75 s each.
    expect(within(panel).getByRole('button', { name: /Video 2: Bravo/ })).toHaveTextContent('1:15');
    const inner = within(panel).getByRole('list', { name: 'Chapters of Bravo' });
    expect(within(inner).getAllByRole('button').map((b) => b.textContent)).toEqual(['0:00Setting off', '0:30The bridge', '1:00Home']);
    expect(within(panel).getByRole('button', { name: /Video 1: Alpha/ })).toHaveAttribute('aria-current', 'true');

    fireEvent.click(within(inner).getByRole('button', { name: '0:30 The bridge' }));
    expect(screen.queryByRole('region', { name: 'Chapters' })).not.toBeInTheDocument();
    expect(await screen.findByText('2 of 3')).toBeInTheDocument();
    expect(toggle).toHaveFocus();
    video.loaded();
    expect(video.seeks).toEqual([30]);
    video.set(31);
    video.tick();
    // The chapter playing is named.
    expect(await screen.findByText('The bridge')).toBeInTheDocument();

    // Within the item on screen: a seek.
    fireEvent.click(screen.getByRole('button', { name: 'Chapters' }));
    expect(within(screen.getByRole('region', { name: 'Chapters' })).getByRole('button', { name: '0:30 The bridge' })).toHaveAttribute('aria-current', 'true');
    fireEvent.click(within(screen.getByRole('region', { name: 'Chapters' })).getByRole('button', { name: '1:00 Home' }));
    expect(video.seeks).toEqual([30, 60]);
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
  });

  it('scrubs the whole timeline from one bar', async () => {
    const video = clock();
    watch();
    renderApp('/watch/t1');
    expect(await screen.findByText('1 of 3')).toBeInTheDocument();
    const bar = await screen.findByRole('slider', { name: 'Timeline position' });
    expect(bar).toHaveAttribute('max', '225');
    expect(bar).toHaveAttribute('aria-valuetext', 'Video 1 of 3: Alpha, 0:00');
    // 160 s on the timeline: the third video (from 150 s), 10 s in.
    fireEvent.change(bar, { target: { value: '160' } });
    expect(await screen.findByText('3 of 3')).toBeInTheDocument();
    video.loaded();
    expect(video.seeks).toEqual([10]);
    // Back into the second video's chapters: its chapter is named.
    fireEvent.change(bar, { target: { value: '110' } });
    expect(await screen.findByText('2 of 3')).toBeInTheDocument();
    video.loaded();
    expect(video.seeks).toEqual([10, 35]);
    video.tick();
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuetext', 'Video 2 of 3: Bravo, chapter The bridge, 0:35'));
    expect(bar).toHaveValue('110');
  });

  it('shows no chapters for one video without any', async () => {
    clock();
    mockApi({
      'GET /api/timelines/t1': jsonResponse(200, timelineFixture()),
      'GET /api/timelines/t1/videos': jsonResponse(200, [videoFixture({ id: 'a', title: 'Alpha' })]),
      'GET /api/timelines': jsonResponse(200, []),
      'GET /api/videos/a/liked': jsonResponse(200, { isLiked: false, liked: false, likesCount: 0 }),
      'GET /api/videos/a/comments': jsonResponse(200, []),
      'GET /api/videos/a/captions': jsonResponse(200, []),
    });
    renderApp('/watch/t1');
    expect(await screen.findByText('1 of 1')).toBeInTheDocument();
    await screen.findByRole('button', { name: 'Play' }).catch(() => undefined);
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('button', { name: 'Chapters' })).not.toBeInTheDocument();
    expect(screen.queryByRole('slider', { name: 'Timeline position' })).not.toBeInTheDocument();
  });
});

describe('times written in comments', () => {
  const comment = (id: string, content: string) => ({
    id, videoId: 'a', timelineId: 't1', parentId: null, content, userId: 'someone', userName: 'Grace Hopper',
    createdAt: new Date(Date.now() - 120_000).toISOString(),
    user: { id: 'someone', displayName: 'Grace Hopper', username: 'grace', avatar: null },
    replies: [], repliesCount: 0, repliesCursor: null as string | null, likesCount: 0,
  });

  it('seek the video in the player and close the comments; a time past the video stays text', async () => {
    const video = clock();
    jest.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(() => false);
    watch({ 'GET /api/videos/a/comments': jsonResponse(200, [comment('c1', 'The fox at 0:42, and again at 1:02:03 or 1:10!')]) });
    renderApp('/watch/t1');
    expect(testUser.id).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: /^Comments, 1/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Comments' });
    const text = await within(dialog).findByText(/The fox at/);
    expect(within(text).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['Play from 0:42', 'Play from 1:10']);
    expect(text).toHaveTextContent('The fox at 0:42, and again at 1:02:03 or 1:10!');
    const play = HTMLMediaElement.prototype.play as jest.Mock;
    play.mockClear();
    fireEvent.click(within(text).getByRole('button', { name: 'Play from 0:42' }));
    expect(video.seeks).toEqual([42]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Comments' })).not.toBeInTheDocument());
    expect(play).toHaveBeenCalled();
  });
});
