import { describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor } from '@testing-library/react';
import { errorResponse, mockApi, timelineFixture } from '../../../testing/api-mocks';
import { videoFixture } from '../../../testing/media-fixtures';
import { jsonResponse, renderApp } from '../../../testing/test-utils';

describe('watch route', () => {
  it("says 'Timeline Not Found' for a timeline the server does not have (or hides)", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({ 'GET /api/timelines/nope': errorResponse(404, 'Timeline not found') });
    renderApp('/watch/nope');
    expect(await screen.findByRole('heading', { name: 'Timeline Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it("says 'No videos in this timeline' when nothing can be played yet", async () => {
    mockApi({
      'GET /api/timelines/t1': jsonResponse(200, timelineFixture()),
      'GET /api/timelines/t1/videos': jsonResponse(200, [videoFixture({ status: 'processing', hlsUrl: null })]),
      'GET /api/timelines': jsonResponse(200, []),
    });
    renderApp('/watch/t1');
    expect(await screen.findByText('No videos in this timeline')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Summer Trip' })).toBeInTheDocument();
  });

  it('plays the videos, moves to the next timeline in feed order, and records the view with keepalive', async () => {
    jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
    const { requests } = mockApi({
      'GET /api/timelines/t1': jsonResponse(200, timelineFixture()),
      'GET /api/timelines/t2': jsonResponse(200, timelineFixture({ id: 't2', title: 'Winter' })),
      'GET /api/timelines/t1/videos': jsonResponse(200, [videoFixture({ id: 'a', title: 'Alpha' }), videoFixture({ id: 'b', title: 'Bravo', status: 'processing', hlsUrl: '/api/videos/b/hls/master.m3u8' })]),
      'GET /api/timelines/t2/videos': jsonResponse(200, [videoFixture({ id: 'c', title: 'Charlie' })]),
      'GET /api/timelines': jsonResponse(200, [timelineFixture(), timelineFixture({ id: 't2', title: 'Winter' })]),
      'POST /api/timelines/t1/views': new Response(null, { status: 201 }),
    });
    const { router } = renderApp('/watch/t1');
    expect(await screen.findByRole('region', { name: 'Summer Trip: video player' })).toBeInTheDocument();
    // A processing video with its first rendition is already watchable.
    expect(screen.getByText('1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous timeline' })).toBeDisabled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next timeline' })).toBeEnabled());

    const video = document.querySelector('video')!;
    let now = 0;
    jest.spyOn(HTMLMediaElement.prototype, 'currentTime', 'get').mockImplementation(() => now);
    jest.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockImplementation(() => 75);
    jest.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(() => false);
    for (now = 0; now <= 4; now += 1) act(() => void video.dispatchEvent(new Event('timeupdate')));

    act(() => screen.getByRole('button', { name: 'Next timeline' }).click());
    await waitFor(() => expect(router.state.location.pathname).toBe('/watch/t2'));
    expect(await screen.findByRole('region', { name: 'Winter: video player' })).toBeInTheDocument();
    const view = requests.find((request) => request.method === 'POST' && request.url.endsWith('/api/timelines/t1/views'));
    expect(view?.keepalive).toBe(true);
    expect(view?.body).toMatchObject({ watchTime: 4 });
    expect((view?.body as { completion: number }).completion).toBeCloseTo(4 / 150);
    expect(typeof (view?.body as { timeZone?: string }).timeZone).toBe('string');
  });

  it('starts at the video a link names (?video=, a notification about it), and at the first for one it does not have', async () => {
    jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
    mockApi({
      'GET /api/timelines/t1': jsonResponse(200, timelineFixture()),
      'GET /api/timelines/t1/videos': jsonResponse(200, [videoFixture({ id: 'a', title: 'Alpha' }), videoFixture({ id: 'b', title: 'Bravo' }), videoFixture({ id: 'c', title: 'Charlie' })]),
      'GET /api/timelines': jsonResponse(200, []),
    });
    const { unmount } = renderApp('/watch/t1?video=b');
    expect(await screen.findByText('2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Video 2 of 3: Bravo' })).toHaveAttribute('aria-current', 'true');
    unmount();
    renderApp('/watch/t1?video=gone');
    expect(await screen.findByText('1 of 3')).toBeInTheDocument();
  });

  it('shows the ready images among the videos, in timeline order, counting them', async () => {
    jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
    const { requests } = mockApi({
      'GET /api/timelines/t1': jsonResponse(200, timelineFixture()),
      'GET /api/timelines/t1/videos': jsonResponse(200, [
        videoFixture({ id: 'i1', title: 'Beach photo', mediaType: 'image', duration: 0, position: 0 }),
        videoFixture({ id: 'a', title: 'Alpha', position: 1 }),
        videoFixture({ id: 'i2', title: 'Still processing', mediaType: 'image', duration: 0, status: 'processing', position: 2 }),
      ]),
      'GET /api/media/i1/file': () => new Response(new Uint8Array([0xff, 0xd8]), { headers: { 'Content-Type': 'image/jpeg' } }),
      'GET /api/timelines': jsonResponse(200, []),
    });
    renderApp('/watch/t1');
    expect(await screen.findByRole('img', { name: 'Beach photo' })).toBeInTheDocument();
    expect(screen.getByText('1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Image 1 of 2: Beach photo' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Video 2 of 2: Alpha' })).toBeInTheDocument();
    expect(new URL(requests.find((request) => request.url.includes('/api/timelines/t1/videos'))!.url).searchParams.get('include')).toBe('images');
  });
});
