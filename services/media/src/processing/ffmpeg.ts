import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Running ffmpeg and ffprobe: always `spawn` with an argument array (never a shell, so no file
 * name or tag can inject anything), killed when the job's signal aborts (shutdown), with the
 * tail of stderr kept for the error.
 */
export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
}

/**
 * FFMPEG_PATH / FFPROBE_PATH when given, else the system's (`/usr/bin/ffmpeg`, ffmpeg 5.1 on the
 * reference machine), else whatever `ffmpeg` is on the PATH.
 */
export function resolveBinaries(overrides: { ffmpegPath?: string | undefined; ffprobePath?: string | undefined } = {}): FfmpegBinaries {
  const pick = (override: string | undefined, name: string) =>
    override || ['/usr/bin', '/usr/local/bin'].map((dir) => `${dir}/${name}`).find((path) => existsSync(path)) || name;
  return { ffmpeg: pick(overrides.ffmpegPath, 'ffmpeg'), ffprobe: pick(overrides.ffprobePath, 'ffprobe') };
}

export class FfmpegError extends Error {
  constructor(
    readonly binary: string,
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly signal: NodeJS.Signals | null = null,
  ) {
    super(`${binary.split('/').pop()} exited with ${signal ?? exitCode}: ${stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 500)}`);
    this.name = 'FfmpegError';
  }
}

export class AbortedError extends Error {
  constructor() {
    super('Processing was stopped');
    this.name = 'AbortedError';
  }
}

export interface RunOptions {
  signal?: AbortSignal | undefined;
  /** Called with each `key=value` block ffmpeg writes with `-progress pipe:1`. */
  onProgress?: ((progress: Record<string, string>) => void) | undefined;
  /** Nice level of the child (transcoding yields to the API on a shared machine). */
  nice?: number;
  /** Called with the tail of stderr when the child exits successfully (its warnings). */
  onStderr?: ((stderr: string) => void) | undefined;
}

const STDERR_TAIL = 8 * 1024;

/** Runs a binary to completion; resolves with its stdout. */
export function run(binary: string, args: string[], options: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new AbortedError());
    let child: ChildProcess;
    try {
      child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      return reject(error);
    }
    if (options.nice && child.pid) {
      try {
        setPriority(child.pid, options.nice);
      } catch {
        // Not allowed here; run at normal priority.
      }
    }
    let stdout = '';
    let stderr = '';
    let pending = '';
    let block: Record<string, string> = {};
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (!options.onProgress) {
        stdout += chunk;
        return;
      }
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        const eq = line.indexOf('=');
        if (eq <= 0) continue;
        const key = line.slice(0, eq);
        block[key] = line.slice(eq + 1);
        if (key === 'progress') {
          options.onProgress(block);
          block = {};
        }
      }
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });

    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      child.kill('SIGTERM');
      // ffmpeg finishes its files on SIGTERM; a stuck one gets no second chance.
      killTimer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      killTimer.unref();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error) => {
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code, signal) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      if (options.signal?.aborted) return reject(new AbortedError());
      if (code === 0) {
        options.onStderr?.(stderr);
        resolve(stdout);
      }
      else reject(new FfmpegError(binary, code, stderr, signal));
    });
  });
}

/** Seconds of output ffmpeg reports in a progress block (`out_time_us`; `out_time_ms` is µs too). */
export function progressSeconds(block: Record<string, string>): number | null {
  const micros = Number(block.out_time_us ?? block.out_time_ms);
  if (Number.isFinite(micros) && micros >= 0) return micros / 1e6;
  return null;
}
