import { describe, expect, it } from '@jest/globals';
import { parseStartTime, resolveStart, startProblemMessage, watchLink } from './deep-link';

describe('watchLink', () => {
  it('is the player address, with the item and second when given', () => {
    expect(watchLink('https://t.example', 'abc')).toBe('https://t.example/watch/abc');
    expect(watchLink('https://t.example', 'abc', { item: 3, t: 42 })).toBe('https://t.example/watch/abc?item=3&t=42');
    expect(watchLink('https://t.example', 'abc', { item: 3, t: 42.9 })).toBe('https://t.example/watch/abc?item=3&t=42');
    expect(watchLink('https://t.example', 'abc', { item: 2, t: 0 })).toBe('https://t.example/watch/abc?item=2');
    expect(watchLink('https://t.example', 'a/b c', { item: 1, t: 5 })).toBe('https://t.example/watch/a%2Fb%20c?item=1&t=5');
  });

  it('leaves out a position that is not one', () => {
    expect(watchLink('', 'abc', { item: 0, t: 5 })).toBe('/watch/abc');
    expect(watchLink('', 'abc', { item: 1.5, t: 5 })).toBe('/watch/abc');
    expect(watchLink('', 'abc', { item: 1, t: Number.NaN })).toBe('/watch/abc?item=1');
    expect(watchLink('', 'abc', null)).toBe('/watch/abc');
  });
});

describe('parseStartTime', () => {
  it.each([
    ['42', 42],
    ['0', 0],
    ['42.7', 42],
    ['42s', 42],
    ['1m23s', 83],
    ['1m23', 83],
    ['2m', 120],
    ['1h2m3s', 3723],
    ['1H', 3600],
    ['1:23', 83],
    ['01:02:03', 3723],
  ])('%s is %d seconds', (value, seconds) => {
    expect(parseStartTime(value)).toBe(seconds);
  });

  it.each([null, undefined, '', ' ', '-5', 'abc', '1e3', 'Infinity', 'NaN', '42x', 'h', 'ms', '1:2', '0x10', '9999999'])('%j is not a time', (value) => {
    expect(parseStartTime(value)).toBeNull();
  });
});

describe('resolveStart', () => {
  const items = [
    { id: 'v1', duration: 60, mediaType: 'video' },
    { id: 'v2', duration: 30, mediaType: 'video' },
    { id: 'v3', duration: 90, mediaType: 'video' },
    { id: 'i4', duration: 0, mediaType: 'image' },
  ];
  const at = (query: string) => resolveStart(new URLSearchParams(query), items);

  it('opens the item counted from 1 at the second given', () => {
    expect(at('item=3&t=42')).toEqual({ index: 2, time: 42, problem: null });
    expect(at('item=1')).toEqual({ index: 0, time: 0, problem: null });
    expect(at('item=3&t=1m5s')).toEqual({ index: 2, time: 65, problem: null });
    expect(at('item=%203%20&t=42')).toEqual({ index: 2, time: 42, problem: null });
  });

  it('starts at the first item, or the video named, without a position', () => {
    expect(at('')).toEqual({ index: 0, time: 0, problem: null });
    expect(at('video=v2')).toEqual({ index: 1, time: 0, problem: null });
    expect(at('video=gone')).toEqual({ index: 0, time: 0, problem: null });
    expect(at('t=12')).toEqual({ index: 0, time: 12, problem: null });
    expect(at('video=v3&t=12')).toEqual({ index: 2, time: 12, problem: null });
  });

  it('prefers a good item to the video named', () => {
    expect(at('video=v1&item=2&t=5')).toEqual({ index: 1, time: 5, problem: null });
  });

  it.each(['item=0', 'item=5', 'item=-1', 'item=2.5', 'item=abc', 'item=', 'item=1e1', 'item=99999999'])('a bad item (%s) starts from the beginning and says so', (query) => {
    expect(at(`${query}&t=42`)).toEqual({ index: 0, time: 0, problem: 'item' });
  });

  it('a bad item with a video named starts at that video', () => {
    expect(at('item=9&video=v2&t=5')).toEqual({ index: 1, time: 0, problem: 'item' });
  });

  it.each(['t=abc', 't=-3', 't=', 't=60', 't=600', 't=1:00'])('a bad time (%s) starts the item from its start and says so', (query) => {
    expect(at(`item=1&${query}`)).toEqual({ index: 0, time: 0, problem: 'time' });
  });

  it('keeps a time in an item whose length is not known yet', () => {
    expect(resolveStart(new URLSearchParams('item=1&t=500'), [{ id: 'x', duration: 0 }])).toEqual({ index: 0, time: 500, problem: null });
  });

  it('ignores a time in an image', () => {
    expect(at('item=4&t=3')).toEqual({ index: 3, time: 0, problem: null });
  });

  it('does not fail on an empty list', () => {
    expect(resolveStart(new URLSearchParams('item=1&t=3'), [])).toEqual({ index: 0, time: 0, problem: 'item' });
    expect(resolveStart(new URLSearchParams('t=3'), [])).toEqual({ index: 0, time: 0, problem: null });
  });

  it('says what was not followed', () => {
    expect(startProblemMessage('item', { index: 0, time: 0, problem: 'item' }).title).toBe('That part of the timeline is not here');
    expect(startProblemMessage('time', { index: 2, time: 0, problem: 'time' }).description).toBe('Playing item 3 from its start instead.');
  });
});
