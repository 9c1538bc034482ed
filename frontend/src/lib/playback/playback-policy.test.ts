import { describe, expect, it } from '@jest/globals';
import { autoQuality, canPreload, concurrentVideoLimit, isDataSaver, isLowEndDevice, levelForQuality, offeredQualities, type PlaybackConditions, startQuality } from './playback-policy';

const strong: PlaybackConditions = { network: { effectiveType: '4g', downlink: 10 }, device: { hardwareConcurrency: 8, deviceMemory: 8 } };
const on = (changes: Partial<PlaybackConditions>): PlaybackConditions => ({ ...strong, ...changes });

describe('auto quality (spec 000, section 4)', () => {
  it.each<[string, PlaybackConditions, string]>([
    ['a good network and device', strong, '720p'],
    ['browsers that tell nothing', { network: {}, device: {} }, '720p'],
    ['slow-2g', on({ network: { effectiveType: 'slow-2g' } }), '144p'],
    ['downlink 0.4', on({ network: { effectiveType: '4g', downlink: 0.4 } }), '144p'],
    ['2g', on({ network: { effectiveType: '2g' } }), '360p'],
    ['downlink 1.4', on({ network: { effectiveType: '4g', downlink: 1.4 } }), '360p'],
    ['downlink 1.5', on({ network: { effectiveType: '4g', downlink: 1.5 } }), '720p'],
    ['a low-end device (2 cores)', on({ device: { hardwareConcurrency: 2 } }), '360p'],
    ['a low-end device (2 GB)', on({ device: { deviceMemory: 2 } }), '360p'],
    ['battery 19 % not charging', on({ battery: { level: 0.19, charging: false } }), '360p'],
    ['battery 19 % charging', on({ battery: { level: 0.19, charging: true } }), '720p'],
    ['battery 20 %', on({ battery: { level: 0.2, charging: false } }), '720p'],
  ])('%s → %s', (_name, conditions, quality) => {
    expect(autoQuality(conditions)).toBe(quality);
  });

  it('knows a low-end device', () => {
    expect(isLowEndDevice({ hardwareConcurrency: 4, deviceMemory: 4 })).toBe(false);
    expect(isLowEndDevice({})).toBe(false);
  });
});

describe('data saver and preloading (spec 000, sections 4 and 9)', () => {
  it.each<[string, PlaybackConditions, boolean, boolean, 1 | 2]>([
    ['good conditions', strong, false, true, 2],
    ['2g', on({ network: { effectiveType: '2g' } }), true, false, 1],
    ['slow-2g', on({ network: { effectiveType: 'slow-2g' } }), true, false, 1],
    ['battery 14 %', on({ battery: { level: 0.14, charging: true } }), true, false, 1],
    ['battery 15 %', on({ battery: { level: 0.15, charging: false } }), false, false, 2],
    ['battery 30 %', on({ battery: { level: 0.3, charging: false } }), false, false, 2],
    ['battery 31 %', on({ battery: { level: 0.31, charging: false } }), false, true, 2],
    ['Save-Data', on({ network: { effectiveType: '4g', saveData: true } }), true, false, 1],
    ['a low-end device', on({ device: { hardwareConcurrency: 1 } }), false, true, 1],
  ])('%s: data saver %s, preload %s, %s video(s) at once', (_name, conditions, saver, preload, limit) => {
    expect(isDataSaver(conditions)).toBe(saver);
    expect(canPreload(conditions)).toBe(preload);
    expect(concurrentVideoLimit(conditions)).toBe(limit);
  });
});

describe('quality to rendition', () => {
  it('picks the tallest rendition at or below the quality, else the smallest', () => {
    const heights = [1080, 144, 720, 360];
    expect(levelForQuality(heights, '1080p')).toBe(0);
    expect(levelForQuality(heights, '720p')).toBe(2);
    expect(levelForQuality(heights, '360p')).toBe(3);
    expect(levelForQuality(heights, '144p')).toBe(1);
    expect(levelForQuality([480, 720], '360p')).toBe(0);
    expect(levelForQuality([], '720p')).toBe(-1);
  });
});

describe('the first rendition and the rungs offered', () => {
  it('starts at the best the cap allows that the estimated bandwidth carries, 360p when nothing is known', () => {
    expect(startQuality('720p', 10)).toBe('720p');
    expect(startQuality('720p', 2)).toBe('360p');
    expect(startQuality('720p', 0.2)).toBe('144p');
    expect(startQuality('360p', 50)).toBe('360p');
    expect(startQuality('144p', 50)).toBe('144p');
    expect(startQuality('720p', undefined)).toBe('360p');
    expect(startQuality('144p', undefined)).toBe('144p');
  });

  it('never offers a rung above the source', () => {
    expect(offeredQualities([144, 360, 720])).toEqual(['144p', '360p', '720p']);
    expect(offeredQualities([144, 360, 720, 1080])).toEqual(['144p', '360p', '720p', '1080p']);
    expect(offeredQualities([144])).toEqual(['144p']);
    expect(offeredQualities([])).toEqual([]);
  });
});
