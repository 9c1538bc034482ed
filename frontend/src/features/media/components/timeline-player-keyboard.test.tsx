import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { mockApi, noContent } from '../../../testing/api-mocks';
import { videoFixture } from '../../../testing/media-fixtures';
import { createTestQueryClient, jsonResponse } from '../../../testing/test-utils';
import { SWITCH_GUARD_MS } from '../lib/gestures';
import { PLAYER_KEYS_HELP } from './player-announcer';
import { TimelinePlayer } from './timeline-player';

const videos = [videoFixture({ id: 'a', title: 'Alpha', duration: 60 }), videoFixture({ id: 'b', title: 'Bravo', duration: 60 }), videoFixture({ id: 'c', title: 'Charlie', duration: 60 })];

let api: ReturnType<typeof mockApi>;

beforeEach(() => {
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  api = mockApi({ 'GET /api/timelines/t1/watch-position': jsonResponse(200, { position: null }), 'DELETE /api/timelines/t1/watch-position': noContent() });
});
afterEach(() => {
  delete (document as { pictureInPictureEnabled?: boolean }).pictureInPictureEnabled;
  delete (HTMLVideoElement.prototype as { requestPictureInPicture?: unknown }).requestPictureInPicture;
});

function renderPlayer(startAt?: string) {
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <TimelinePlayer timeline={{ id: 't1', title: 'Summer Trip' }} videos={videos} onBack={() => undefined} onLeaveVideo={() => undefined} startAt={startAt} />
    </QueryClientProvider>,
  );
  const player = screen.getByRole('region', { name: 'Summer Trip: video player' });
  const key = (name: string) => fireEvent.keyDown(document.activeElement ?? document.body, { key: name });
  return { player, key, announced: () => screen.getByTestId('player-announcer').textContent };
}

describe('the player by keyboard and screen reader', () => {
  it('says the keys, and announces each item as it changes (not when the player opens)', async () => {
    const { player, key, announced } = renderPlayer();
    expect(player).toHaveAccessibleDescription(PLAYER_KEYS_HELP);
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
    expect(announced()).toBe('');
    act(() => player.focus());
    key('ArrowRight');
    expect(announced()).toBe('Video 2 of 3: Bravo');
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    // Past the guard against a double switch (a second key within SWITCH_GUARD_MS is ignored).
    await act(() => new Promise((resolve) => setTimeout(resolve, SWITCH_GUARD_MS + 20)));
    key('ArrowLeft');
    expect(announced()).toBe('Video 1 of 3: Alpha');
  });

  it('keeps the focus in the player when Next goes away at the last item', async () => {
    const { player, announced } = renderPlayer();
    const next = screen.getByRole('button', { name: 'Next video' });
    act(() => next.focus());
    fireEvent.click(next);
    // The switch guard lets one change through at a time.
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    fireEvent.click(next);
    expect(announced()).toBe('Video 3 of 3: Charlie');
    expect(next).toBeDisabled();
    expect(player).toHaveFocus();
  });

  it('moves 10 s back and forward with J and L, within the video', () => {
    const { player, key } = renderPlayer();
    const video = document.querySelector('video')!;
    act(() => player.focus());
    video.currentTime = 30;
    key('l');
    expect(video.currentTime).toBe(40);
    key('j');
    key('j');
    expect(video.currentTime).toBe(20);
    video.currentTime = 4;
    key('j');
    expect(video.currentTime).toBe(0);
  });

  it('offers no picture in picture where the browser has none', async () => {
    renderPlayer();
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(screen.queryByRole('button', { name: 'Picture in picture' })).not.toBeInTheDocument();
  });

  it('toggles picture in picture where the browser has it, with its button and with P', async () => {
    Object.defineProperty(document, 'pictureInPictureEnabled', { value: true, configurable: true });
    const request = jest.fn(() => Promise.resolve({} as PictureInPictureWindow));
    Object.defineProperty(HTMLVideoElement.prototype, 'requestPictureInPicture', { value: request, configurable: true });
    const { player, key } = renderPlayer();
    const button = await screen.findByRole('button', { name: 'Picture in picture' });
    fireEvent.click(button);
    expect(request).toHaveBeenCalledTimes(1);
    act(() => {
      document.querySelector('video')!.dispatchEvent(new Event('enterpictureinpicture'));
    });
    act(() => player.focus());
    key('p');
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('forgets the saved place when the last item ends, even when opened by a link to it', async () => {
    renderPlayer('c');
    const deletes = () => api.requests.filter((r) => r.method === 'DELETE' && r.url.endsWith('/api/timelines/t1/watch-position'));
    // Wait for the player's after-paint parts, then end the last video.
    await screen.findByRole('button', { name: 'Previous video' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(deletes()).toHaveLength(0);
    act(() => {
      document.querySelector('video')!.dispatchEvent(new Event('ended'));
    });
    await waitFor(() => expect(deletes()).toHaveLength(1));
    // Opened at the last item (a link to it): no place was asked for, to offer elsewhere.
    expect(api.requests.filter((r) => r.method === 'GET' && r.url.endsWith('/watch-position'))).toEqual([]);
  });
});
