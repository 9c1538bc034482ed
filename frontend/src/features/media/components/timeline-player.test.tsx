import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Toaster } from '../../../components/ui/toast';
import { errorResponse, mockApi } from '../../../testing/api-mocks';
import { createTestQueryClient, jsonResponse } from '../../../testing/test-utils';
import { TimelinePlayer, timelineCompletion, type TimelinePlayerProps } from './timeline-player';
import { videoFixture } from '../../../testing/media-fixtures';

const videos = [
  videoFixture({ id: 'a', title: 'Alpha', duration: 10 }),
  videoFixture({ id: 'b', title: 'Bravo', duration: 20 }),
  videoFixture({ id: 'c', title: 'Charlie', duration: 30 }),
];

let play: jest.Mock<() => Promise<void>>;
let pause: jest.Mock<() => void>;
let paused = true;

beforeEach(() => {
  jest.useFakeTimers();
  paused = true;
  play = jest.fn(() => {
    paused = false;
    return Promise.resolve();
  });
  pause = jest.fn(() => {
    paused = true;
  });
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    const result = play();
    this.dispatchEvent(new Event('play'));
    return result;
  });
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    pause();
    this.dispatchEvent(new Event('pause'));
  });
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(() => paused);
});

afterEach(() => {
  jest.useRealTimers();
});

function renderPlayer(props: Partial<TimelinePlayerProps> = {}) {
  const onLeaveVideo = jest.fn();
  const onNextTimeline = jest.fn();
  const onPreviousTimeline = jest.fn();
  const view = render(
    <QueryClientProvider client={createTestQueryClient()}>
      <TimelinePlayer
        timeline={{ id: 't1', title: 'Summer Trip' }}
        videos={videos}
        onBack={() => undefined}
        onNextTimeline={onNextTimeline}
        onPreviousTimeline={onPreviousTimeline}
        onLeaveVideo={onLeaveVideo}
        {...props}
      />
      <Toaster />
    </QueryClientProvider>,
  );
  const surface = screen.getByTestId('player-surface');
  const gesture = (dx: number, dy: number) => {
    // jsdom has no PointerEvent; a MouseEvent of the same name carries the coordinates.
    fireEvent(surface, new MouseEvent('pointerdown', { bubbles: true, clientX: 200, clientY: 300 }));
    fireEvent(surface, new MouseEvent('pointerup', { bubbles: true, clientX: 200 + dx, clientY: 300 + dy }));
  };
  const wait = (ms: number) => act(() => jest.advanceTimersByTime(ms));
  const player = () => screen.getByRole('region', { name: 'Summer Trip: video player' });
  return { ...view, gesture, wait, player, onLeaveVideo, onNextTimeline, onPreviousTimeline };
}

describe('timeline player', () => {
  it("starts muted on the first video, with 'n of total' and a dot per video", () => {
    renderPlayer();
    const video = document.querySelector('video')!;
    expect(video.muted).toBe(true);
    expect(video.autoplay).toBe(true);
    expect(video.getAttribute('src')).toBe(`${window.location.origin}/api/videos/a/stream`);
    expect(screen.getByText('1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Video 1 of 3: Alpha' })).toHaveAttribute('aria-current', 'true');
    expect(screen.getAllByRole('button', { name: /^Video \d of 3/ })).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(video.muted).toBe(false);
    expect(screen.getByRole('button', { name: 'Mute' })).toBeInTheDocument();
  });

  it('hides the controls 8 s into playing; a tap shows them, a second tap plays or pauses, taps within 300 ms are dropped', () => {
    const { gesture, wait, player } = renderPlayer();
    const video = document.querySelector('video')!;
    act(() => {
      paused = false;
      video.dispatchEvent(new Event('play'));
    });
    expect(player()).toHaveClass('player--controls');
    wait(7999);
    expect(player()).toHaveClass('player--controls');
    wait(1);
    expect(player()).not.toHaveClass('player--controls');

    gesture(0, 0);
    expect(player()).toHaveClass('player--controls');
    expect(play).not.toHaveBeenCalled();
    expect(pause).not.toHaveBeenCalled();

    wait(299);
    gesture(0, 0);
    expect(pause).not.toHaveBeenCalled();

    wait(1);
    gesture(10, -10);
    expect(pause).toHaveBeenCalledTimes(1);
    wait(300);
    gesture(0, 0);
    expect(play).toHaveBeenCalledTimes(1);
  });

  it('keeps the controls while paused, and brings them back on a mouse move while playing', () => {
    const { wait, player } = renderPlayer();
    wait(20_000);
    expect(player()).toHaveClass('player--controls');

    const video = document.querySelector('video')!;
    act(() => {
      paused = false;
      video.dispatchEvent(new Event('play'));
    });
    wait(8000);
    expect(player()).not.toHaveClass('player--controls');
    // jsdom has no PointerEvent; a MouseEvent of the same name carries the pointer's kind.
    const move = new MouseEvent('pointermove', { bubbles: true, clientX: 10, clientY: 10 });
    Object.defineProperty(move, 'pointerType', { value: 'mouse' });
    fireEvent(player(), move);
    expect(player()).toHaveClass('player--controls');
  });

  it('takes the keys from the page itself (focus left on the body after a click), not from a field', () => {
    renderPlayer();
    (document.activeElement as HTMLElement | null)?.blur();
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: ' ' });
    expect(play).toHaveBeenCalledTimes(1);

    const field = document.createElement('input');
    document.body.append(field);
    fireEvent.keyDown(field, { key: ' ' });
    expect(play).toHaveBeenCalledTimes(1);
    field.remove();
  });

  it('moves the time label with the seek bar at once', () => {
    renderPlayer();
    const video = document.querySelector('video')!;
    jest.spyOn(video, 'duration', 'get').mockReturnValue(10);
    fireEvent(video, new Event('loadedmetadata'));
    expect(screen.getByText('0:00 / 0:10')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('slider', { name: 'Seek' }), { target: { value: '7' } });
    expect(screen.getByText('0:07 / 0:10')).toBeInTheDocument();
  });

  it('swipes left and right between videos from 50 px, with a 50 ms guard', () => {
    const { gesture, wait } = renderPlayer();
    gesture(-49, 0);
    expect(screen.getByText('1 of 3')).toBeInTheDocument();
    wait(400);
    gesture(-50, 0);
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    expect(document.querySelector('video')!.getAttribute('src')).toBe(`${window.location.origin}/api/videos/b/stream`);
    // A second swipe inside the guard is ignored.
    gesture(-120, 0);
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    wait(50);
    gesture(-120, 0);
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    wait(50);
    gesture(-120, 0);
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    gesture(80, 20);
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
  });

  it('swipes up and down between timelines', () => {
    const { gesture, wait, onNextTimeline, onPreviousTimeline } = renderPlayer();
    gesture(0, -49);
    expect(onNextTimeline).not.toHaveBeenCalled();
    wait(300);
    gesture(5, -60);
    expect(onNextTimeline).toHaveBeenCalledTimes(1);
    wait(60);
    gesture(-5, 70);
    expect(onPreviousTimeline).toHaveBeenCalledTimes(1);
  });

  it('has the four arrow buttons, and advances at the end of a video', () => {
    const { onNextTimeline } = renderPlayer();
    expect(screen.getByRole('button', { name: 'Previous video' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next timeline' }));
    expect(onNextTimeline).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Previous timeline' })).toBeEnabled();
    fireEvent.ended(document.querySelector('video')!);
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(60));
    fireEvent.click(screen.getByRole('button', { name: 'Next video' }));
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next video' })).toBeDisabled();
  });

  it('records watch time and how far into the timeline the viewer got, when leaving a video', () => {
    const { onLeaveVideo, wait, unmount } = renderPlayer();
    const video = document.querySelector('video')!;
    let now = 0;
    jest.spyOn(HTMLMediaElement.prototype, 'currentTime', 'get').mockImplementation(() => now);
    let length = 10;
    jest.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockImplementation(() => length);
    paused = false;
    for (now = 0; now <= 10; now += 1) fireEvent.timeUpdate(video);
    // A seek is not watching.
    expect(onLeaveVideo).not.toHaveBeenCalled();
    fireEvent.ended(video);
    expect(onLeaveVideo).toHaveBeenLastCalledWith({ watchTime: 10, completion: 10 / 60 });
    wait(60);
    now = 0;
    length = 20;
    fireEvent.timeUpdate(video);
    now = 15;
    fireEvent.timeUpdate(video);
    now = 16;
    fireEvent.timeUpdate(video);
    act(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(onLeaveVideo).toHaveBeenLastCalledWith({ watchTime: 11, completion: 26 / 60 });
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    unmount();
    // Nothing new was watched since: no second record.
    expect(onLeaveVideo).toHaveBeenCalledTimes(2);
  });

  it('works out completion over the whole timeline', () => {
    expect(
      timelineCompletion({
        durations: new Map([
          ['a', 10],
          ['b', 30],
        ]),
        furthest: new Map([
          ['a', 12],
          ['b', 10],
        ]),
      }),
    ).toBe(0.5);
  });

  it("says 'Export failed' with the reason when the export is not there", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { requests } = mockApi({ 'POST /api/timelines/t1/export': errorResponse(404, 'Cannot POST /api/timelines/t1/export') });
    renderPlayer();
    // Exporting needs a signed-in user (spec 001): the button comes with the session.
    const download = await screen.findByRole('button', { name: 'Download timeline' });
    await act(async () => {
      fireEvent.click(download);
    });
    expect(await screen.findByText('Export failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to export timeline: Cannot POST /api/timelines/t1/export')).toBeInTheDocument();
    expect(requests.find((request) => request.url.endsWith('/export'))?.body).toEqual({ options: { title: 'Summer Trip' } });
  });

  it('downloads the export named after the title', async () => {
    mockApi({ 'POST /api/timelines/t1/export': jsonResponse(200, { downloadUrl: '/api/exports/x.mp4' }) });
    const clicks: HTMLAnchorElement[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    renderPlayer({ timeline: { id: 't1', title: 'Summer Trip: 2025!' } });
    // Exporting needs a signed-in user (spec 001): the button comes with the session.
    const download = await screen.findByRole('button', { name: 'Download timeline' });
    await act(async () => {
      fireEvent.click(download);
    });
    expect(clicks[0]?.download).toBe('Summer_Trip__2025_.mp4');
    expect(clicks[0]?.getAttribute('href')).toBe('/api/exports/x.mp4');
  });

  describe('with images', () => {
    const photo = videoFixture({ id: 'i1', title: 'Beach photo', originalName: 'beach.jpg', mediaType: 'image', duration: 0, streamUrl: '/api/videos/i1/stream?access=tok' });
    const mixed = [videos[0]!, photo, videos[1]!];
    const picture = () => new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), { status: 200, headers: { 'Content-Type': 'image/jpeg' } });

    it('shows an image for 5 s with its time among the videos, without the video-only controls or likes', async () => {
      const { requests } = mockApi({ 'GET /api/media/i1/file': picture, 'GET /api/videos/a/liked': jsonResponse(200, { liked: false, likesCount: 0 }) });
      const { gesture, wait } = renderPlayer({ videos: mixed });
      expect(screen.getByText('1 of 3')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Image 2 of 3: Beach photo' })).toBeInTheDocument();
      expect(await screen.findByRole('button', { name: /Like this video/ })).toBeInTheDocument();

      gesture(-80, 0);
      expect(screen.getByText('2 of 3')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Image 2 of 3: Beach photo' })).toHaveAttribute('aria-current', 'true');
      expect(await screen.findByRole('img', { name: 'Beach photo' })).toBeInTheDocument();
      expect(document.querySelector('video')).toBeNull();
      const fetched = requests.find((request) => request.url.includes('/api/media/i1/file'));
      expect(fetched?.url).toBe(`${window.location.origin}/api/media/i1/file?variant=web&access=tok`);
      expect(fetched?.headers.get('Authorization')).toBe('Bearer test-token');
      for (const name of ['Seek', 'Video quality']) expect(screen.queryByRole('slider', { name }) ?? screen.queryByRole('combobox', { name })).toBeNull();
      expect(screen.queryByRole('button', { name: /^(Mute|Unmute)$/ })).toBeNull();
      expect(screen.queryByRole('button', { name: /Like this video|Comments/ })).toBeNull();

      const time = screen.getByRole('progressbar', { name: 'Time on this image' });
      wait(2500);
      expect(time).toHaveAttribute('aria-valuenow', '2');
      wait(2400);
      expect(screen.getByText('2 of 3')).toBeInTheDocument();
      wait(200);
      expect(screen.getByText('3 of 3')).toBeInTheDocument();
      expect(document.querySelector('video')!.getAttribute('src')).toBe(`${window.location.origin}/api/videos/b/stream`);
      expect(screen.getByRole('slider', { name: 'Seek' })).toBeInTheDocument();
    });

    it('pauses an image with a tap as it pauses a video, and goes back to a video with the arrows', async () => {
      mockApi({ 'GET /api/media/i1/file': picture });
      const { gesture, wait } = renderPlayer({ videos: [photo, videos[0]!] });
      expect(await screen.findByRole('img', { name: 'Beach photo' })).toBeInTheDocument();
      wait(300);
      // The controls are showing: a tap pauses.
      gesture(0, 0);
      expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
      wait(8000);
      expect(screen.getByText('1 of 2')).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'Play' }));
      wait(5100);
      expect(screen.getByText('2 of 2')).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'Previous video' }));
      expect(screen.getByText('1 of 2')).toBeInTheDocument();
      expect(await screen.findByRole('img', { name: 'Beach photo' })).toBeInTheDocument();
    });

    it('keeps counting time when the picture cannot be fetched', async () => {
      jest.spyOn(console, 'error').mockImplementation(() => undefined);
      mockApi({ 'GET /api/media/i1/file': errorResponse(404, 'Not found') });
      const { wait } = renderPlayer({ videos: [photo, videos[0]!] });
      expect(await screen.findByText('The image could not be shown.')).toBeInTheDocument();
      wait(5100);
      expect(screen.getByText('2 of 2')).toBeInTheDocument();
    });
  });
});
