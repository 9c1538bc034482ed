import { describe, expect, it, jest } from '@jest/globals';
import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { AUTOPLAY_VISIBLE_RATIO, useVisibleAutoplay } from './use-visible-autoplay';

type ObserverCallback = (entries: Pick<IntersectionObserverEntry, 'isIntersecting' | 'intersectionRatio'>[]) => void;

function FeedVideo() {
  const ref = useRef<HTMLVideoElement>(null);
  const playing = useVisibleAutoplay(ref);
  return (
    <>
      <video ref={ref} data-testid="video" />
      <span>{playing ? 'playing' : 'paused'}</span>
    </>
  );
}

describe('useVisibleAutoplay', () => {
  it('plays muted and looping from 30 % visible, and pauses below', () => {
    let callback: ObserverCallback = () => undefined;
    let options: IntersectionObserverInit | undefined;
    const disconnect = jest.fn();
    globalThis.IntersectionObserver = class {
      constructor(cb: ObserverCallback, init?: IntersectionObserverInit) {
        callback = cb;
        options = init;
      }
      observe() {}
      disconnect() {
        disconnect();
      }
    } as unknown as typeof IntersectionObserver;
    let paused = true;
    const play = jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      paused = false;
      this.dispatchEvent(new Event('play'));
      return Promise.resolve();
    });
    const pause = jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
      paused = true;
      this.dispatchEvent(new Event('pause'));
    });
    jest.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(() => paused);

    const { unmount } = render(<FeedVideo />);
    const video = screen.getByTestId('video') as HTMLVideoElement;
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    expect(AUTOPLAY_VISIBLE_RATIO).toBe(0.3);
    expect(options?.threshold).toContain(0.3);

    act(() => callback([{ isIntersecting: true, intersectionRatio: 0.29 }]));
    expect(play).not.toHaveBeenCalled();
    act(() => callback([{ isIntersecting: true, intersectionRatio: 0.3 }]));
    expect(play).toHaveBeenCalledTimes(1);
    expect(screen.getByText('playing')).toBeInTheDocument();
    act(() => callback([{ isIntersecting: true, intersectionRatio: 0.1 }]));
    expect(pause).toHaveBeenCalledTimes(1);
    expect(screen.getByText('paused')).toBeInTheDocument();
    unmount();
    expect(disconnect).toHaveBeenCalled();
  });
});
