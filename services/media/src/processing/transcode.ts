import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { progressSeconds, run } from './ffmpeg.js';
import { chooseLadder, type Rung } from './ladder.js';
import type { ProbeResult } from './probe.js';

/**
 * The video pipeline on local files, without storage or database, so the worker and the
 * benchmark run exactly the same ffmpeg commands.
 *
 * Order, for the earliest playable video:
 *   1. stills: the 160x90 thumbnail and the poster, one decode, two outputs;
 *   2. the lowest rung alone (small, fast): the video is playable once it exists;
 *   3. every other rung in ONE ffmpeg run (single decode, split filter, one encoder per rung).
 * Doing 2 apart costs one extra decode of the source; in exchange the first rendition is ready
 * after a fraction of the total time.
 */
export const THUMBNAIL = { width: 160, height: 90, file: 'thumbnail.jpg' } as const;
export const POSTER = { maxSide: 1280, file: 'poster.jpg' } as const;
export const MASTER_PLAYLIST = 'master.m3u8';
export const VARIANT_PLAYLIST = 'index.m3u8';
export const SEGMENT_SECONDS = 4;

/** x264 preset: PeerTube's choice (veryfast: ~2 dB over ultrafast for ~15% more time). */
const PRESET = 'veryfast';
const CRF = '23';
/** mjpeg qscale (2 best … 31 worst); 4 is about JPEG quality 80, 3 about 85. */
const THUMBNAIL_QSCALE = '4';
const POSTER_QSCALE = '3';

export interface TranscodeProgress {
  stage: 'thumbnail' | 'transcoding';
  /** 0–1 within the stage. */
  fraction: number;
  message: string;
}

export interface FinishedRendition extends Rung {
  /** Peak and average bits/s, measured on the segments. */
  bandwidth: number;
  averageBandwidth: number;
  codecs: string;
  segments: number;
}

export interface TranscodeOptions {
  ffmpeg: string;
  ffprobe: string;
  input: string;
  /** Local directory the outputs go to: `thumbnail.jpg`, `poster.jpg`, `hls/<rung>/…`, `hls/master.m3u8`. */
  outDir: string;
  probe: ProbeResult;
  signal?: AbortSignal | undefined;
  /** Frames larger than this are not decoded (`-max_pixels`): the probe's size was checked, this holds if a stream lies about it. */
  maxPixels?: number | undefined;
  onProgress?: (progress: TranscodeProgress) => void;
  /** The stills exist (before any transcoding). */
  onStills?: (files: { thumbnail: string; poster: string }) => Promise<void>;
  /**
   * Renditions were finished: `done` lists every finished rung so far (lowest first), `added`
   * those of this pass; `hls/master.m3u8` already lists `done`. Awaited before the next pass.
   */
  onRenditions?: (done: FinishedRendition[], added: FinishedRendition[]) => Promise<void>;
}

export interface TranscodeResult {
  renditions: FinishedRendition[];
  thumbnail: string;
  poster: string;
  master: string;
}

export function ladderFor(probe: ProbeResult): Rung[] {
  return chooseLadder(probe.displayWidth, probe.displayHeight, outputFps(probe));
}

/** Frame rate of the renditions: the source's, at most 60. */
const outputFps = (probe: ProbeResult): number => Math.min(probe.fps || 30, 60);

export async function transcodeVideo(options: TranscodeOptions): Promise<TranscodeResult> {
  const { probe, outDir } = options;
  const ladder = ladderFor(probe);
  await mkdir(join(outDir, 'hls'), { recursive: true });

  const stills = await makeStills(options);
  await options.onStills?.(stills);

  // Progress across the passes, weighted by their cost: one decode of the source plus the
  // pixels each pass encodes.
  const passes = ladder.length > 1 ? [ladder.slice(0, 1), ladder.slice(1)] : [ladder];
  const decodeCost = probe.displayWidth * probe.displayHeight * 0.35;
  const costs = passes.map((rungs) => decodeCost + rungs.reduce((sum, r) => sum + r.width * r.height, 0));
  const totalCost = costs.reduce((a, b) => a + b, 0);
  const done: FinishedRendition[] = [];
  let before = 0;
  for (const [index, rungs] of passes.entries()) {
    const first = done.length + 1;
    const last = done.length + rungs.length;
    const label = rungs.map((r) => r.name).join(', ');
    const message = `Transcoding ${label} (${first === last ? first : `${first}–${last}`} of ${ladder.length})`;
    const share = costs[index]! / totalCost;
    const start = before;
    const report = (fraction: number) => options.onProgress?.({ stage: 'transcoding', fraction: start + share * fraction, message });
    report(0);
    await encodePass(options, rungs, report);
    before += share;
    const added = await Promise.all(rungs.map((rung) => describeRendition(options, rung)));
    done.push(...added);
    await writeFile(join(outDir, 'hls', MASTER_PLAYLIST), masterPlaylist(done, probe));
    await options.onRenditions?.(done, added);
  }
  return { renditions: done, ...stills, master: join(outDir, 'hls', MASTER_PLAYLIST) };
}

/** The thumbnail (160x90, letterboxed) and the poster, from the frame at min(2 s, duration/4). */
export async function makeStills(options: Pick<TranscodeOptions, 'ffmpeg' | 'input' | 'outDir' | 'probe' | 'signal' | 'onProgress' | 'maxPixels'>) {
  const { probe, outDir } = options;
  const at = Math.max(0, Math.min(2, probe.duration / 4));
  const thumbnail = join(outDir, THUMBNAIL.file);
  const poster = join(outDir, POSTER.file);
  options.onProgress?.({ stage: 'thumbnail', fraction: 0, message: 'Making the thumbnail' });
  const { width: w, height: h } = THUMBNAIL;
  const filter =
    `[0:v]split=2[t][p];` +
    `[t]scale=${w}:${h}:force_original_aspect_ratio=decrease:force_divisible_by=2,` +
    `pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,format=yuvj420p[thumb];` +
    `[p]scale='min(iw,${POSTER.maxSide})':'min(ih,${POSTER.maxSide})':force_original_aspect_ratio=decrease:force_divisible_by=2,` +
    `setsar=1,format=yuvj420p[poster]`;
  await run(
    options.ffmpeg,
    [
      ...ffmpegCommon(),
      ...maxPixelsOption(options.maxPixels),
      '-ss', at.toFixed(3), '-i', options.input,
      '-filter_complex', filter,
      '-map', '[thumb]', '-frames:v', '1', '-q:v', THUMBNAIL_QSCALE, '-f', 'image2', thumbnail,
      '-map', '[poster]', '-frames:v', '1', '-q:v', POSTER_QSCALE, '-f', 'image2', poster,
    ],
    { signal: options.signal },
  );
  options.onProgress?.({ stage: 'thumbnail', fraction: 1, message: 'Thumbnail ready' });
  return { thumbnail, poster };
}

const ffmpegCommon = (): string[] => ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
const maxPixelsOption = (maxPixels: number | undefined): string[] => (maxPixels ? ['-max_pixels', String(Math.ceil(maxPixels))] : []);

/**
 * The arguments of one transcoding pass: one decode, one H.264 (+AAC) HLS output per rung.
 *
 * Frames keep their own timestamps (`-fps_mode vfr`): the encoders see exactly the frames the
 * source has. With a constant output rate, ffmpeg would fill every gap with copies: a 1 KB file
 * of two frames 600 s apart declared at 60 fps became 36,000 frames per rung. Above 60 fps the
 * output rate (`-r 60`) drops the frames in excess, and never adds any.
 */
export function passArguments(input: string, outDir: string, probe: ProbeResult, rungs: Rung[], maxPixels?: number): string[] {
  const fps = outputFps(probe);
  const labels = rungs.map((_, i) => `v${i}`);
  const split = rungs.length > 1 ? `[0:v]split=${rungs.length}${labels.map((l) => `[${l}]`).join('')};` : '';
  const scaled = rungs
    .map((r, i) => `${rungs.length > 1 ? `[${labels[i]}]` : `[0:v]`}scale=${r.width}:${r.height}:flags=bicubic,setsar=1,format=yuv420p[o${i}]`)
    .join(';');
  const gop = String(Math.max(1, Math.round(fps * 2)));
  const args = [...ffmpegCommon(), '-progress', 'pipe:1', '-nostats', ...maxPixelsOption(maxPixels), '-i', input, '-filter_complex', split + scaled];
  rungs.forEach((r, i) => {
    const dir = join(outDir, 'hls', r.name);
    args.push('-map', `[o${i}]`);
    if (probe.hasAudio) args.push('-map', '0:a:0');
    args.push('-fps_mode', 'vfr');
    if (probe.fps > 60) args.push('-r', '60');
    args.push(
      '-map_metadata', '-1', '-map_chapters', '-1',
      '-c:v', 'libx264', '-preset', PRESET, '-profile:v', 'high', '-level:v', r.level,
      '-crf', CRF, '-maxrate', String(r.maxrate), '-bufsize', String(r.maxrate * 2),
      '-g', gop, '-keyint_min', gop,
      // Keyframes on the segment grid in every rendition, so players can switch between them.
      '-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`,
    );
    if (probe.hasAudio) args.push('-c:a', 'aac', '-b:a', String(r.audioBitrate), '-ac', '2');
    args.push(
      '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_flags', 'independent_segments',
      '-hls_segment_type', 'mpegts', '-hls_segment_filename', join(dir, 'seg_%04d.ts'), join(dir, VARIANT_PLAYLIST),
    );
  });
  return args;
}

async function encodePass(options: TranscodeOptions, rungs: Rung[], report: (fraction: number) => void): Promise<void> {
  await Promise.all(rungs.map((r) => mkdir(join(options.outDir, 'hls', r.name), { recursive: true })));
  const duration = options.probe.duration;
  await run(options.ffmpeg, passArguments(options.input, options.outDir, options.probe, rungs, options.maxPixels), {
    signal: options.signal,
    onProgress: (block) => {
      const seconds = progressSeconds(block);
      if (block.progress === 'end') report(1);
      else if (seconds !== null && duration > 0) report(Math.min(1, seconds / duration));
    },
  });
}

/** Measures a finished rendition: bandwidth from its segments, codecs from its first segment. */
async function describeRendition(options: TranscodeOptions, rung: Rung): Promise<FinishedRendition> {
  const dir = join(options.outDir, 'hls', rung.name);
  const playlist = await readFile(join(dir, VARIANT_PLAYLIST), 'utf8');
  const segments: Array<{ file: string; seconds: number }> = [];
  let seconds = 0;
  for (const line of playlist.split('\n')) {
    const extinf = /^#EXTINF:([\d.]+)/.exec(line);
    if (extinf) seconds = Number(extinf[1]);
    else if (line && !line.startsWith('#')) segments.push({ file: line.trim(), seconds });
  }
  if (segments.length === 0) throw new Error(`Rendition ${rung.name} has no segments`);
  let peak = 0;
  let bytes = 0;
  let total = 0;
  for (const segment of segments) {
    const { size } = await stat(join(dir, segment.file));
    bytes += size;
    total += segment.seconds;
    // Very short tail segments would exaggerate the peak.
    if (segment.seconds >= 1) peak = Math.max(peak, (size * 8) / segment.seconds);
  }
  const average = total > 0 ? (bytes * 8) / total : 0;
  const codecs = await codecsOf(options.ffprobe, join(dir, segments[0]!.file), options.signal);
  return {
    ...rung,
    bandwidth: Math.ceil(Math.max(peak, average)),
    averageBandwidth: Math.ceil(average),
    codecs,
    segments: segments.length,
  };
}

const PROFILE_IDC: Record<string, string> = { 'Constrained Baseline': '42E0', Baseline: '4200', Main: '4D00', High: '6400' };

/** RFC 6381 codecs of a segment (`avc1.64001f,mp4a.40.2`), for the master playlist. */
async function codecsOf(ffprobe: string, segment: string, signal?: AbortSignal): Promise<string> {
  const json = await run(ffprobe, ['-v', 'error', '-print_format', 'json', '-show_streams', segment], { signal });
  const streams = (JSON.parse(json) as { streams?: Array<{ codec_type?: string; codec_name?: string; profile?: string; level?: number }> }).streams ?? [];
  const codecs: string[] = [];
  const video = streams.find((s) => s.codec_type === 'video');
  if (video) {
    const profile = PROFILE_IDC[video.profile ?? 'High'] ?? '6400';
    codecs.push(`avc1.${profile}${(video.level ?? 31).toString(16).padStart(2, '0')}`.toLowerCase());
  }
  if (streams.some((s) => s.codec_type === 'audio' && s.codec_name === 'aac')) codecs.push('mp4a.40.2');
  return codecs.join(',');
}

/** The master playlist over the finished renditions, lowest first. */
export function masterPlaylist(renditions: FinishedRendition[], probe: ProbeResult): string {
  const fps = outputFps(probe);
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const r of renditions) {
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${r.bandwidth},AVERAGE-BANDWIDTH=${r.averageBandwidth},RESOLUTION=${r.width}x${r.height},` +
        `FRAME-RATE=${fps.toFixed(3)},CODECS="${r.codecs}"`,
      `${r.name}/${VARIANT_PLAYLIST}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Files of a rendition directory, playlists last (so a reader never finds a playlist before its segments). */
export async function renditionFiles(outDir: string, rung: Rung): Promise<string[]> {
  const dir = join(outDir, 'hls', rung.name);
  const names = (await readdir(dir)).sort((a, b) => Number(a.endsWith('.m3u8')) - Number(b.endsWith('.m3u8')) || a.localeCompare(b));
  return names.map((name) => join(dir, name));
}
