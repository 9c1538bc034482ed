import { availableParallelism, totalmem } from 'node:os';

/** What one processing job needs: ffmpeg encoding a 1080p ladder peaks near 1 GiB here. */
const MEMORY_PER_JOB = 1024 ** 3;
const MAX_JOBS = 8;

/**
 * Jobs a worker runs at once when MEDIA_WORKER_CONCURRENCY is not set. ffmpeg spreads one job
 * over every core, so on two cores a second job only slows the first; with more cores, half of
 * them in jobs lets a second upload start processing at once instead of waiting its turn, as
 * far as memory allows.
 */
export function defaultProcessingConcurrency(machine: { cores: number; memoryBytes: number } = { cores: availableParallelism(), memoryBytes: totalmem() }): number {
  const byCores = Math.floor(machine.cores / 2);
  const byMemory = Math.floor(machine.memoryBytes / 2 / MEMORY_PER_JOB);
  return Math.max(1, Math.min(byCores, byMemory, MAX_JOBS));
}
