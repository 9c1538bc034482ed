export type ProgressStage = 'probing' | 'thumbnail' | 'transcoding' | 'finalizing';

export interface ProgressUpdate {
  stage: ProgressStage;
  /** Whole percent, 0–100. */
  progress: number;
  message: string;
}

/** Where each stage sits in the overall percentage. */
const STAGE_RANGE: Record<ProgressStage, [number, number]> = {
  probing: [0, 5],
  thumbnail: [5, 10],
  transcoding: [10, 95],
  finalizing: [95, 100],
};

/**
 * Turns stage fractions into the overall percentage the browser shows, never going backwards,
 * and sends at most one update per `minIntervalMs` (about 4 a second), except that a new stage,
 * a new message and 100 % always go out.
 */
export class ProgressReporter {
  private last: ProgressUpdate | undefined;
  private lastSentAt = 0;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly send: (update: ProgressUpdate) => Promise<void>,
    private readonly minIntervalMs = 250,
  ) {}

  report(stage: ProgressStage, fraction: number, message: string): void {
    const [from, to] = STAGE_RANGE[stage];
    const progress = Math.max(this.last?.progress ?? 0, Math.min(100, Math.floor(from + (to - from) * Math.max(0, Math.min(1, fraction)))));
    const update: ProgressUpdate = { stage, progress, message };
    const changed = !this.last || this.last.stage !== stage || this.last.message !== message;
    const now = Date.now();
    if (!changed && progress === this.last!.progress) return;
    if (!changed && progress < 100 && now - this.lastSentAt < this.minIntervalMs) return;
    this.last = update;
    this.lastSentAt = now;
    // In order, one at a time; a failed send is the sender's to log.
    this.sending = this.sending.then(() => this.send(update)).catch(() => undefined);
  }

  /** Resolves when every update so far has been sent. */
  flush(): Promise<void> {
    return this.sending;
  }
}
