import { describe, expect, it, jest } from '@jest/globals';
import { createPlaceSaver, resumeOffer, SAVE_EVERY_MS, serially } from './resume';

const items = [
  { id: 'A1', title: 'Alpha', duration: 60 },
  { id: 'b2', title: 'Bravo', duration: 200 },
  { id: 'c3', title: 'Charlie', duration: 30 },
];

describe('resumeOffer', () => {
  it('offers the saved item and second as "Resume at m:ss"', () => {
    expect(resumeOffer({ itemId: 'b2', seconds: 134.8 }, items)).toEqual({ index: 1, seconds: 134, label: 'Resume at 2:14' });
    expect(resumeOffer({ itemId: 'a1', seconds: 42 }, items)).toEqual({ index: 0, seconds: 42, label: 'Resume at 0:42' });
    expect(resumeOffer({ itemId: 'c3', seconds: 0 }, items)).toEqual({ index: 2, seconds: 0, label: 'Resume at 0:00' });
  });

  it('offers nothing at the very start, at the very end, for an item no longer there, or without a place', () => {
    expect(resumeOffer({ itemId: 'A1', seconds: 4.9 }, items)).toBeNull();
    expect(resumeOffer({ itemId: 'c3', seconds: 26 }, items)).toBeNull();
    expect(resumeOffer({ itemId: 'c3', seconds: 31 }, items)).toBeNull();
    expect(resumeOffer({ itemId: 'gone', seconds: 50 }, items)).toBeNull();
    expect(resumeOffer(null, items)).toBeNull();
  });

  it('moves a place past the end of an item (now shorter) on to the next one', () => {
    expect(resumeOffer({ itemId: 'A1', seconds: 75 }, items)).toEqual({ index: 1, seconds: 0, label: 'Resume at 0:00' });
  });
});

describe('createPlaceSaver', () => {
  const setup = () => {
    let now = 1_000_000;
    const save = jest.fn<(place: { itemId: string; seconds: number }, options: { keepalive: boolean }) => void>();
    const clear = jest.fn<(options: { keepalive: boolean }) => void>();
    const saver = createPlaceSaver(save, clear, { now: () => now });
    return { saver, save, clear, advance: (ms: number) => (now += ms) };
  };

  it('saves the first place at once, then at most every 10 s while playing', () => {
    const { saver, save, advance } = setup();
    saver.note({ itemId: 'a', seconds: 5.04 });
    expect(save).toHaveBeenLastCalledWith({ itemId: 'a', seconds: 5 }, { keepalive: false });
    for (let i = 1; i < 40; i += 1) {
      advance(250);
      saver.note({ itemId: 'a', seconds: 5 + i / 4 });
    }
    expect(save).toHaveBeenCalledTimes(1);
    advance(SAVE_EVERY_MS - 39 * 250);
    saver.note({ itemId: 'a', seconds: 15 });
    expect(save).toHaveBeenCalledTimes(2);
    expect(save).toHaveBeenLastCalledWith({ itemId: 'a', seconds: 15 }, { keepalive: false });
  });

  it('saves on a pause or when the page is left, with keepalive, but never the same place twice', () => {
    const { saver, save, advance } = setup();
    saver.flush({ keepalive: true });
    expect(save).not.toHaveBeenCalled();
    saver.note({ itemId: 'a', seconds: 8 });
    advance(3000);
    saver.note({ itemId: 'a', seconds: 11 });
    saver.flush();
    expect(save).toHaveBeenCalledTimes(2);
    saver.flush({ keepalive: true });
    expect(save).toHaveBeenCalledTimes(2);
    saver.note({ itemId: 'b', seconds: 11 });
    saver.flush({ keepalive: true });
    expect(save).toHaveBeenLastCalledWith({ itemId: 'b', seconds: 11 }, { keepalive: true });
  });

  it('forgets the place when the timeline is finished, and saves again once the viewer plays on', () => {
    const { saver, save, clear } = setup();
    saver.note({ itemId: 'c', seconds: 29 });
    saver.finish({ keepalive: true });
    saver.finish();
    expect(clear).toHaveBeenCalledTimes(1);
    expect(clear).toHaveBeenCalledWith({ keepalive: true });
    saver.flush({ keepalive: true });
    expect(save).toHaveBeenCalledTimes(1);
    saver.note({ itemId: 'a', seconds: 7 });
    expect(save).toHaveBeenCalledTimes(2);
  });
});

describe('serially', () => {
  it('starts each task once the one before has settled, failed or not', async () => {
    const run = serially();
    const order: string[] = [];
    let release = () => undefined as void;
    run(() => new Promise<void>((resolve) => (release = () => { order.push('save done'); resolve(); })));
    run(async () => {
      order.push('save 2 failing');
      throw new Error('offline');
    });
    run(async () => {
      order.push('clear');
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order).toEqual(['save done', 'save 2 failing', 'clear']);
  });
});
