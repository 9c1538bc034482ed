/**
 * How the player adapts to the network, the battery and the device (spec 000, sections 4 and 9).
 * Pure functions of what the browser reports, so the rules can be read and tested as a table.
 */

export type Quality = '144p' | '360p' | '720p' | '1080p';
export type QualitySetting = 'auto' | Quality;

export const QUALITIES: readonly Quality[] = ['144p', '360p', '720p', '1080p'];
export const QUALITY_HEIGHT: Record<Quality, number> = { '144p': 144, '360p': 360, '720p': 720, '1080p': 1080 };

export interface NetworkInfo {
  /** 'slow-2g' | '2g' | '3g' | '4g' (Network Information API), when the browser tells. */
  effectiveType?: string;
  /** Estimated megabits per second. */
  downlink?: number;
  /** The person asked the browser to save data. */
  saveData?: boolean;
}

export interface BatteryInfo {
  /** 0..1 */
  level: number;
  charging: boolean;
}

export interface DeviceInfo {
  hardwareConcurrency?: number;
  /** Gigabytes, rounded down by the browser. */
  deviceMemory?: number;
}

export interface PlaybackConditions {
  network: NetworkInfo;
  battery?: BatteryInfo;
  device: DeviceInfo;
}

const isSlowType = (network: NetworkInfo) => network.effectiveType === 'slow-2g' || network.effectiveType === '2g';

/** Two cores or fewer, or 2 GB of memory or less. */
export function isLowEndDevice(device: DeviceInfo): boolean {
  return (device.hardwareConcurrency !== undefined && device.hardwareConcurrency <= 2) || (device.deviceMemory !== undefined && device.deviceMemory <= 2);
}

/**
 * Auto quality: slow-2g or under 0.5 Mbit/s → 144p; 2g or under 1.5 Mbit/s → 360p; else 720p,
 * lowered to 360p on a low-end device or a battery under 20 % that is not charging.
 */
export function autoQuality({ network, battery, device }: PlaybackConditions): Quality {
  const downlink = network.downlink;
  if (network.effectiveType === 'slow-2g' || (downlink !== undefined && downlink < 0.5)) return '144p';
  if (network.effectiveType === '2g' || (downlink !== undefined && downlink < 1.5)) return '360p';
  if (isLowEndDevice(device)) return '360p';
  if (battery && battery.level < 0.2 && !battery.charging) return '360p';
  return '720p';
}

/** Data saver: a 2g or slow-2g network, a battery under 15 %, or the browser's own Save-Data. */
export function isDataSaver({ network, battery }: Pick<PlaybackConditions, 'network' | 'battery'>): boolean {
  return isSlowType(network) || (battery !== undefined && battery.level < 0.15) || network.saveData === true;
}

/** Preloading is allowed unless data saver is on, the network is 2g or slower, or the battery is at 30 % or less. */
export function canPreload(conditions: PlaybackConditions): boolean {
  if (isDataSaver(conditions) || isSlowType(conditions.network)) return false;
  return !(conditions.battery !== undefined && conditions.battery.level <= 0.3);
}

/** Videos loading at once: 1 on a low-end device, a slow network or in data saver; else 2. */
export function concurrentVideoLimit(conditions: PlaybackConditions): 1 | 2 {
  return isLowEndDevice(conditions.device) || isSlowType(conditions.network) || isDataSaver(conditions) ? 1 : 2;
}

/** Megabits per second a rendition needs to play without stalling (the worker's ladder, with headroom). */
export const QUALITY_NEEDS_MBPS: Record<Quality, number> = { '144p': 0.3, '360p': 1, '720p': 3, '1080p': 6 };

/**
 * The first rendition to load in auto mode: the best the cap allows that the estimated bandwidth
 * carries (the browser's downlink, or the throughput this device measured last time), so a video
 * starts sharp on a good connection instead of climbing from the bottom; 360p when nothing is
 * known.
 */
export function startQuality(cap: Quality, estimatedMbps: number | undefined): Quality {
  const allowed = QUALITIES.filter((q) => QUALITY_HEIGHT[q] <= QUALITY_HEIGHT[cap]);
  if (estimatedMbps === undefined || !Number.isFinite(estimatedMbps)) return allowed.includes('360p') ? '360p' : allowed[0]!;
  const fits = allowed.filter((q) => QUALITY_NEEDS_MBPS[q] <= estimatedMbps);
  return fits.at(-1) ?? allowed[0]!;
}

/** The qualities worth offering for a ladder: those the renditions reach (never above the source). */
export function offeredQualities(heights: readonly number[]): Quality[] {
  const tallest = Math.max(0, ...heights);
  return QUALITIES.filter((q, i) => QUALITY_HEIGHT[q] <= tallest || (i === 0 && heights.length > 0));
}

/**
 * The rendition to play for `quality` among `heights` (hls.js levels): the tallest at or below
 * the wanted height, else the smallest there is. -1 when there are none.
 */
export function levelForQuality(heights: readonly number[], quality: Quality): number {
  const target = QUALITY_HEIGHT[quality];
  let best = -1;
  let smallest = -1;
  heights.forEach((height, index) => {
    if (smallest < 0 || height < (heights[smallest] ?? Infinity)) smallest = index;
    if (height <= target && (best < 0 || height > (heights[best] ?? -1))) best = index;
  });
  return best >= 0 ? best : smallest;
}
