import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { mockApi, noContent } from '../../../testing/api-mocks';
import { videoFixture } from '../../../testing/media-fixtures';
import { createTestQueryClient, jsonResponse } from '../../../testing/test-utils';
import PlayerSession, { type PlayerSessionProps } from './player-session';

const items = [videoFixture({ id: 'a', title: 'Alpha', duration: 60 }), videoFixture({ id: 'b', title: 'Bravo', duration: 200 }), videoFixture({ id: 'c', title: 'Charlie', duration: 30 })];
const POSITION = 'GET /api/timelines/t1/watch-position';

/** The system's media controls as a browser offers them (jsdom has none). */
class FakeMediaSession {
  metadata: { title: string; artist: string; album: string } | null = null;
  playbackState = 'none';
  handlers = new Map<string, ((details: Record<string, unknown>) => void) | null>();
  positions: unknown[] = [];
  setActionHandler(action: string, handler: ((details: Record<string, unknown>) => void) | null) {
    this.handlers.set(action, handler);
  }
  setPositionState(state: unknown) {
    this.positions.push(state);
  }
}

let session: FakeMediaSession;
let video: HTMLVideoElement;

beforeEach(() => {
  session = new FakeMediaSession();
  Object.defineProperty(navigator, 'mediaSession', { value: session, configurable: true });
  (globalThis as { MediaMetadata?: unknown }).MediaMetadata = class {
    constructor(init: object) {
      Object.assign(this, init);
    }
  };
  video = document.createElement('video');
  document.body.append(video);
});
afterEach(() => {
  video.remove();
  delete (navigator as { mediaSession?: unknown }).mediaSession;
  delete (globalThis as { MediaMetadata?: unknown }).MediaMetadata;
});

function renderSession(props: Partial<PlayerSessionProps> = {}) {
  const callbacks = { onJump: jest.fn(), onGoTo: jest.fn(), onPlay: jest.fn(), onPause: jest.fn(), onSeek: jest.fn() };
  const all: PlayerSessionProps = {
    timeline: { id: 't1', title: 'Summer Trip', creatorName: 'Ada' },
    items,
    index: 0,
    media: { current: video },
    playing: false,
    signedIn: true,
    linked: false,
    finishes: 0,
    ...callbacks,
    ...props,
  };
  const client = createTestQueryClient();
  const view = render(
    <QueryClientProvider client={client}>
      <PlayerSession {...all} />
    </QueryClientProvider>,
  );
  const rerender = (more: Partial<PlayerSessionProps>) =>
    view.rerender(
      <QueryClientProvider client={client}>
        <PlayerSession {...all} {...more} />
      </QueryClientProvider>,
    );
  return { ...callbacks, rerender, unmount: view.unmount };
}

const playTo = (seconds: number) =>
  act(() => {
    video.currentTime = seconds;
    video.dispatchEvent(new Event('timeupdate'));
  });

describe('player session: resume', () => {
  it('offers "Resume at 2:14" for a place saved elsewhere, and goes there', async () => {
    const api = mockApi({ [POSITION]: jsonResponse(200, { position: { itemId: 'b', seconds: 134.4, updatedAt: '2026-01-01T10:00:00Z' } }) });
    const { onJump } = renderSession();
    const resume = await screen.findByRole('button', { name: 'Resume at 2:14' });
    expect(resume).toHaveAccessibleDescription('Video 2 of 3: Bravo');
    // It arrives in a polite live region, so a screen reader says it.
    expect(screen.getByRole('group', { name: 'Resume watching' }).parentElement).toHaveAttribute('aria-live', 'polite');
    fireEvent.click(resume);
    expect(onJump).toHaveBeenCalledWith(1, 134);
    expect(screen.queryByRole('button', { name: 'Resume at 2:14' })).not.toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'GET' && r.url.endsWith('/watch-position'))).toHaveLength(1);
  });

  it('can be dismissed, and is not asked for with a link to a place or signed out', async () => {
    mockApi({ [POSITION]: jsonResponse(200, { position: { itemId: 'a', seconds: 42, updatedAt: '2026-01-01T10:00:00Z' } }) });
    const { onJump, unmount } = renderSession();
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('button', { name: 'Resume at 0:42' })).not.toBeInTheDocument();
    expect(onJump).not.toHaveBeenCalled();
    unmount();

    const linked = mockApi({ [POSITION]: jsonResponse(200, { position: { itemId: 'a', seconds: 42, updatedAt: '2026-01-01T10:00:00Z' } }) });
    renderSession({ linked: true }).unmount();
    const signedOut = mockApi({}, { signedIn: false });
    renderSession({ signedIn: false });
    await act(async () => Promise.resolve());
    expect([...linked.requests, ...signedOut.requests].filter((r) => r.url.includes('watch-position'))).toEqual([]);
  });

  it('saves the place once the viewer has watched a little, every 10 s at most, on a pause, and with keepalive when the page is hidden', async () => {
    const api = mockApi({ [POSITION]: jsonResponse(200, { position: null }), 'PUT /api/timelines/t1/watch-position': jsonResponse(200, { position: null }) });
    renderSession();
    const puts = () => api.requests.filter((r) => r.method === 'PUT');
    playTo(2);
    video.dispatchEvent(new Event('pause'));
    expect(puts()).toEqual([]);
    playTo(6);
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]!.body).toEqual({ itemId: 'a', seconds: 6 });
    playTo(7);
    playTo(8);
    expect(puts()).toHaveLength(1);
    act(() => {
      video.dispatchEvent(new Event('pause'));
    });
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1]!.body).toEqual({ itemId: 'a', seconds: 8 });
    playTo(20);
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    await waitFor(() => expect(puts()).toHaveLength(3));
    expect(puts()[2]).toMatchObject({ body: { itemId: 'a', seconds: 20 }, keepalive: true });
  });

  it('forgets the place when the timeline is watched to its end', async () => {
    const api = mockApi({ [POSITION]: jsonResponse(200, { position: null }), 'DELETE /api/timelines/t1/watch-position': noContent() });
    const { rerender } = renderSession({ index: 2 });
    rerender({ index: 2, finishes: 1 });
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1));
  });
});

describe('player session: the system media controls', () => {
  it('names the item, the timeline and its maker, and passes play, pause, next, previous and seeking to the player', async () => {
    mockApi({ [POSITION]: jsonResponse(200, { position: null }) });
    const { onPlay, onPause, onGoTo, onSeek, rerender } = renderSession({ index: 1, playing: true });
    expect(session.metadata).toMatchObject({ title: 'Bravo', album: 'Summer Trip', artist: 'Ada' });
    expect(session.playbackState).toBe('playing');
    session.handlers.get('pause')!({});
    session.handlers.get('play')!({});
    session.handlers.get('nexttrack')!({});
    session.handlers.get('previoustrack')!({});
    expect(onPause).toHaveBeenCalledTimes(1);
    expect(onPlay).toHaveBeenCalledTimes(1);
    expect(onGoTo.mock.calls).toEqual([[2], [0]]);
    session.handlers.get('seekto')!({ seekTime: 42 });
    video.currentTime = 30;
    session.handlers.get('seekbackward')!({});
    session.handlers.get('seekforward')!({ seekOffset: 5 });
    expect(onSeek.mock.calls).toEqual([[42], [20], [35]]);

    // At the first item there is no previous one; paused, the system says so.
    rerender({ index: 0, playing: false });
    expect(session.handlers.get('previoustrack')).toBeNull();
    expect(session.handlers.get('nexttrack')).toEqual(expect.any(Function));
    expect(session.metadata).toMatchObject({ title: 'Alpha' });
    expect(session.playbackState).toBe('paused');
  });
});
