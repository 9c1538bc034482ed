import { describe, expect, it } from '@jest/globals';
import { applyQuality } from './use-video-source';

/** The quality controls of hls.js as it defines them: setting currentLevel switches at once, dropping the buffer. */
class FakeHls {
  autoLevelCapping = -1;
  startLevel = -1;
  manualLevel = -1;
  immediateSwitches: number[] = [];
  get autoLevelEnabled() {
    return this.manualLevel === -1;
  }
  get loadLevel() {
    return this.manualLevel;
  }
  set loadLevel(level: number) {
    this.manualLevel = level;
  }
  get currentLevel() {
    return this.manualLevel;
  }
  set currentLevel(level: number) {
    this.manualLevel = level;
    this.immediateSwitches.push(level);
  }
}

const heights = [144, 360, 720];

describe('applyQuality', () => {
  it('bounds the first pick in auto without a switch, so nothing in flight is dropped', () => {
    const hls = new FakeHls();
    applyQuality(hls, heights, 'auto', '144p', true);
    expect(hls.autoLevelCapping).toBe(0);
    expect(hls.autoLevelEnabled).toBe(true);
    applyQuality(hls, heights, 'auto', '144p');
    expect(hls.immediateSwitches).toEqual([]);
  });

  it('starts auto at the rung the estimated bandwidth carries, not at the bottom of the ladder', () => {
    const fast = new FakeHls();
    applyQuality(fast, heights, 'auto', '720p', true, 10);
    expect(fast.startLevel).toBe(2);
    expect(fast.autoLevelEnabled).toBe(true);
    const middling = new FakeHls();
    applyQuality(middling, heights, 'auto', '720p', true, 2);
    expect(middling.startLevel).toBe(1);
    const unknown = new FakeHls();
    applyQuality(unknown, heights, 'auto', '720p', true);
    expect(unknown.startLevel).toBe(1);
    expect([fast, middling, unknown].flatMap((h) => h.immediateSwitches)).toEqual([]);
  });

  it('moves the cap when the conditions change, leaving the switch to the adaptive logic', () => {
    const hls = new FakeHls();
    applyQuality(hls, heights, 'auto', '720p', true);
    applyQuality(hls, heights, 'auto', '360p');
    expect(hls.autoLevelCapping).toBe(1);
    expect(hls.immediateSwitches).toEqual([]);
  });

  it('starts a fixed quality at its rendition and holds it there', () => {
    const hls = new FakeHls();
    applyQuality(hls, heights, '360p', '360p', true);
    expect([hls.startLevel, hls.manualLevel, hls.autoLevelCapping]).toEqual([1, 1, -1]);
    expect(hls.immediateSwitches).toEqual([]);
  });

  it('switches at once when the viewer picks a quality, and back to adaptive from one', () => {
    const hls = new FakeHls();
    applyQuality(hls, heights, 'auto', '720p', true);
    applyQuality(hls, heights, '144p', '144p');
    applyQuality(hls, heights, '144p', '144p');
    applyQuality(hls, heights, 'auto', '720p');
    expect(hls.immediateSwitches).toEqual([0, -1]);
    expect(hls.autoLevelCapping).toBe(2);
  });
});
