/**
 * The HLS ladder: 144p, 360p, 720p and 1080p, capped at the source (never upscaled). "Height"
 * means the SHORT side, so a portrait 720x1280 phone video gets 144/360/720 renditions of
 * 144x256, 360x640 and 720x1280: the same pixel budgets as the landscape ladder. A source whose
 * short side is under 144 gets one rendition at its own size.
 */
export interface Rung {
  /** `144p`: the rendition's directory and label. */
  name: string;
  /** Short side in pixels (the "p" number). */
  lines: number;
  width: number;
  height: number;
  /** Peak video bitrate (bits/s) the encoder may use (CRF capped by VBV). */
  maxrate: number;
  audioBitrate: number;
  /** H.264 level (`3.1`) for the size and frame rate. */
  level: string;
}

export const LADDER_LINES = [144, 360, 720, 1080] as const;

const MAXRATE: Record<number, number> = { 144: 250_000, 360: 900_000, 720: 3_000_000, 1080: 5_500_000 };

export function chooseLadder(displayWidth: number, displayHeight: number, fps: number): Rung[] {
  const short = Math.min(displayWidth, displayHeight);
  const lines = LADDER_LINES.filter((l) => l <= short);
  const chosen: number[] = lines.length > 0 ? [...lines] : [even(short)];
  return chosen.map((l) => rung(l, displayWidth, displayHeight, fps));
}

function rung(lines: number, displayWidth: number, displayHeight: number, fps: number): Rung {
  const portrait = displayHeight > displayWidth;
  const long = even(Math.round((lines * Math.max(displayWidth, displayHeight)) / Math.min(displayWidth, displayHeight)));
  const width = portrait ? lines : long;
  const height = portrait ? long : lines;
  const highFps = fps > 35 ? 1.5 : 1;
  const maxrate = Math.round((MAXRATE[lines] ?? Math.max(150_000, (lines / 144) * MAXRATE[144]!)) * highFps);
  return { name: `${lines}p`, lines, width, height, maxrate, audioBitrate: lines <= 144 ? 64_000 : 128_000, level: h264Level(width, height, fps || 30) };
}

const even = (n: number): number => Math.max(2, 2 * Math.round(n / 2));

// H.264 levels: max frame size (macroblocks) and max macroblocks per second (Table A-1).
const LEVELS: Array<[string, number, number]> = [
  ['3.0', 1_620, 40_500],
  ['3.1', 3_600, 108_000],
  ['3.2', 5_120, 216_000],
  ['4.0', 8_192, 245_760],
  ['4.2', 8_704, 522_240],
  ['5.1', 36_864, 983_040],
  ['5.2', 36_864, 2_073_600],
];

export function h264Level(width: number, height: number, fps: number): string {
  const frame = Math.ceil(width / 16) * Math.ceil(height / 16);
  const rate = frame * fps;
  return LEVELS.find(([, maxFrame, maxRate]) => frame <= maxFrame && rate <= maxRate)?.[0] ?? '5.2';
}
