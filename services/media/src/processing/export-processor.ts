import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { broadcastRealtime, type EventBus, type EventWriter, type Job, type Logger, ObjectNotFoundError, type ObjectStorage, type Transactions } from '@timeliner/platform';
import { type ExportProgress, type ExportTimelineJob, MediaEvents, Realtime } from '@timeliner/proto';
import type { ExportRepository } from '../exports/exports.repository.js';
import type { MediaRepository } from '../media/media.repository.js';
import { exportKey } from '../storage/object-keys.js';
import { AbortedError, type FfmpegBinaries, progressSeconds, run } from './ffmpeg.js';
import { ProcessingFailure } from './failures.js';
import { probe, type ProbeResult } from './probe.js';

export const GENERIC_EXPORT_FAILURE = 'The export could not be made; please try again';
const FPS = 30;

export interface ExportProcessorDeps {
  exports: ExportRepository;
  media: MediaRepository;
  transactions: Transactions;
  /** Writes ExportCompleted with the change (the relay is nudged after the commit). */
  events: EventWriter;
  storage: ObjectStorage;
  logger: Logger;
  binaries: FfmpegBinaries;
  /** Where the requester's browser hears how far the export has come (`export_progress` over /ws). */
  bus?: EventBus;
  tempDir?: string;
}

/** Share of the percentage each step takes: reading the originals, encoding, storing the file. */
const READ_SHARE = 10;
const ENCODE_SHARE = 87;
/** At most this often per export, except for the first and the last word. */
const PROGRESS_INTERVAL_MS = 500;

export interface ExportInput {
  file: string;
  width: number;
  height: number;
  hasAudio: boolean;
  duration: number;
}

const even = (n: number): number => Math.max(2, Math.floor(n / 2) * 2);

/** The common output size: the largest input's, scaled down to fit `maxHeight` lines, even. */
export function outputSize(inputs: ReadonlyArray<Pick<ExportInput, 'width' | 'height'>>, maxHeight: number): { width: number; height: number } {
  const largest = inputs.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
  const scale = Math.min(1, maxHeight / largest.height);
  return { width: even(largest.width * scale), height: even(largest.height * scale) };
}

/**
 * The ffmpeg arguments that concatenate the inputs into one H.264/AAC MP4: each input scaled to
 * fit the common size and padded (centred), 30 fps, square pixels; a silent track stands in for
 * a missing audio stream; then `concat`.
 */
export function concatArguments(inputs: readonly ExportInput[], output: string, size: { width: number; height: number }): string[] {
  const { width, height } = size;
  // `-progress pipe:1`: key=value blocks on stdout, how far the encoding is (the export's progress).
  const args = ['-hide_banner', '-nostdin', '-y', '-progress', 'pipe:1', '-nostats'];
  for (const input of inputs) args.push('-i', input.file);
  const filters: string[] = [];
  const pairs: string[] = [];
  inputs.forEach((input, i) => {
    filters.push(
      `[${i}:v:0]scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,fps=${FPS},setsar=1,format=yuv420p[v${i}]`,
    );
    if (input.hasAudio) {
      filters.push(`[${i}:a:0]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo[a${i}]`);
    } else {
      filters.push(`anullsrc=channel_layout=stereo:sample_rate=48000,atrim=duration=${input.duration.toFixed(3)}[a${i}]`);
    }
    pairs.push(`[v${i}][a${i}]`);
  });
  filters.push(`${pairs.join('')}concat=n=${inputs.length}:v=1:a=1[v][a]`);
  args.push(
    '-filter_complex', filters.join(';'),
    '-map', '[v]', '-map', '[a]',
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '128k',
    '-movflags', '+faststart',
    output,
  );
  return args;
}

/**
 * The job handler of `MediaJobs.Export`: downloads each original to a temp dir, concatenates
 * them with ffmpeg, stores `exports/<id>/<fileName>` and marks the export completed (or error,
 * with a sentence). Temp files are removed whatever happens.
 */
export class ExportProcessor {
  constructor(private readonly deps: ExportProcessorDeps) {}

  async process(job: Job<ExportTimelineJob>): Promise<{ skipped?: 'gone' | 'done'; seconds: number }> {
    const { exportId, mediaIds } = job.payload;
    const row = await this.deps.exports.find(exportId);
    if (!row) return { skipped: 'gone', seconds: 0 };
    if (row.status === 'completed' || row.status === 'error') return { skipped: 'done', seconds: 0 };
    await this.deps.exports.update(exportId, { status: 'processing' });
    const progress = this.progress(exportId, row.timelineId, row.requestedBy);
    progress('processing', 0);

    const work = await mkdtemp(join(this.deps.tempDir ?? tmpdir(), `export-${exportId.slice(0, 8)}-`));
    try {
      const media = await this.deps.media.findIn(undefined, mediaIds);
      const byId = new Map(media.map((m) => [m.id, m]));
      const inputs: ExportInput[] = [];
      for (const [i, id] of mediaIds.entries()) {
        const item = byId.get(id);
        if (!item || item.mediaType !== 'video') throw new ProcessingFailure('A video of the timeline was deleted during the export; please export again');
        const file = await this.download(job, item.filename, join(work, `input-${i}`));
        let info: ProbeResult;
        try {
          info = await probe(this.deps.binaries.ffprobe, file, 'video', job.signal);
        } catch (error) {
          if (job.signal.aborted) throw error;
          throw new ProcessingFailure(`The video "${item.title}" could not be read`, { cause: error });
        }
        inputs.push({ file, width: info.displayWidth, height: info.displayHeight, hasAudio: info.hasAudio, duration: info.duration });
        job.working();
        progress('processing', ((i + 1) / mediaIds.length) * READ_SHARE);
      }

      const output = join(work, 'export.mp4');
      const args = concatArguments(inputs, output, outputSize(inputs, row.maxHeight));
      const total = inputs.reduce((sum, input) => sum + input.duration, 0);
      const ticker = setInterval(() => job.working(), 10_000);
      try {
        // At the worker's own priority, like the processing beside it: someone is waiting for
        // this file on screen (a lower one left it a tenth of the CPU while uploads processed).
        await run(this.deps.binaries.ffmpeg, args, {
          signal: job.signal,
          onProgress: (block) => {
            const seconds = progressSeconds(block);
            if (seconds !== null && total > 0) progress('processing', READ_SHARE + Math.min(1, seconds / total) * ENCODE_SHARE);
          },
        });
      } finally {
        clearInterval(ticker);
      }
      progress('processing', READ_SHARE + ENCODE_SHARE);

      const key = exportKey(exportId, row.fileName);
      const { size } = await stat(output);
      await this.deps.storage.put(key, createReadStream(output), { contentType: 'video/mp4', size });
      await this.deps.transactions.run(async (manager) => {
        await this.deps.exports.update(exportId, { status: 'completed', objectKey: key, error: null, completedAt: new Date() }, { manager });
        await this.deps.events.add(
          manager,
          MediaEvents.ExportCompleted,
          { exportId, timelineId: row.timelineId, requesterId: row.requestedBy, fileName: row.fileName },
          { actorUserId: row.requestedBy, ...(job.meta.requestId ? { requestId: job.meta.requestId } : {}) },
        );
      });
      progress('completed', 100);
      await progress.flush();
      return { seconds: total };
    } finally {
      await rm(work, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** The job is given up: the export becomes `error`, with a sentence the caller can read. */
  async fail(job: Job<ExportTimelineJob>, error: unknown): Promise<void> {
    const reason = error instanceof ProcessingFailure ? error.reason : GENERIC_EXPORT_FAILURE;
    await this.deps.exports.update(job.payload.exportId, { status: 'error', error: reason, completedAt: new Date() }, { whileStatus: 'processing' });
    await this.deps.exports.update(job.payload.exportId, { status: 'error', error: reason, completedAt: new Date() }, { whileStatus: 'queued' });
    const row = await this.deps.exports.find(job.payload.exportId);
    if (row) {
      const progress = this.progress(row.id, row.timelineId, row.requestedBy);
      progress('error', 0);
      await progress.flush();
    }
  }

  /**
   * Tells the requester's browser how far the export is (`export_progress` on their user topic):
   * whole percentages, never backwards, at most every PROGRESS_INTERVAL_MS except the first and
   * the final word. Best effort: a browser that misses one still learns the end from
   * GET /api/exports/{id}.
   */
  private progress(exportId: string, timelineId: string, requesterId: string) {
    const { bus, logger } = this.deps;
    let last: { status: ExportProgress['status']; progress: number; at: number } | undefined;
    let sending: Promise<void> = Promise.resolve();
    const report = (status: ExportProgress['status'], fraction: number) => {
      if (!bus) return;
      const progress = Math.max(status === 'error' ? 0 : (last?.progress ?? 0), Math.min(100, Math.floor(fraction)));
      const now = Date.now();
      if (last && status === last.status && (progress === last.progress || now - last.at < PROGRESS_INTERVAL_MS)) return;
      last = { status, progress, at: now };
      const message: ExportProgress = { type: 'export_progress', exportId, timeline: timelineId, status, progress };
      sending = sending
        .then(() => broadcastRealtime(bus, Realtime.userSubject(requesterId), message))
        .catch((err: unknown) => logger.warn({ err, exportId }, 'export progress not sent'));
    };
    return Object.assign(report, { flush: () => sending });
  }

  private async download(job: Job<ExportTimelineJob>, key: string, file: string): Promise<string> {
    let source;
    try {
      source = await this.deps.storage.get(key);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw new ProcessingFailure('A video of the timeline is missing its file; please export again without it');
      throw error;
    }
    await pipeline(source, createWriteStream(file), { signal: job.signal }).catch((error: unknown) => {
      throw job.signal.aborted ? new AbortedError() : error;
    });
    return file;
  }
}
