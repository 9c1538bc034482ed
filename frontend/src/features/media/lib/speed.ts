/** Speed is measured over this much recent time, so it follows a connection that changes. */
const WINDOW_MS = 5000;
/** Below this much measured time a figure would be noise; none is given. */
const MIN_SPAN_MS = 1000;

/** Upload speed from (time, bytes confirmed) samples over a sliding window. */
export class SpeedMeter {
  private samples: { at: number; bytes: number }[] = [];

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Starts measuring afresh from `bytes` already sent (a resumed upload). */
  reset(bytes = 0): void {
    this.samples = [{ at: this.now(), bytes }];
  }

  /** Records `bytes` confirmed now; returns bytes per second, or undefined until measurable. */
  sample(bytes: number): number | undefined {
    const at = this.now();
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - (this.samples[1]?.at ?? at) >= WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    if (!first) return undefined;
    const span = at - first.at;
    if (span < MIN_SPAN_MS) return undefined;
    return Math.max(0, ((bytes - first.bytes) * 1000) / span);
  }
}

/** '45 s', '3 min', '1 h 5 min': a rough time left, for people. */
export function formatTimeLeft(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  if (seconds < 60) return `${Math.max(1, Math.ceil(seconds))} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Bytes in units up to GB (spec 001, section 9). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
