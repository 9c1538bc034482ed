import { run } from './ffmpeg.js';
import { ProcessingFailure } from './failures.js';

/** What processing needs to know about a source, from ffprobe. */
export interface ProbeResult {
  /** Seconds (fractional); 0 for a still image. */
  duration: number;
  /** Coded size of the video stream. */
  width: number;
  height: number;
  /** Rotation of the display matrix, normalised to 0, 90, 180 or 270. */
  rotation: number;
  /** Size as displayed: coded size with rotation (and sample aspect ratio) applied. */
  displayWidth: number;
  displayHeight: number;
  codec: string;
  pixelFormat: string;
  /** Frames per second (average), 0 when unknown. */
  fps: number;
  hasAudio: boolean;
  /** Recording time from `creation_time` (or QuickTime's creationdate) tags, ISO-8601. */
  createdAt?: string;
  formatName: string;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: Array<{ side_data_type?: string; rotation?: number }>;
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string; tags?: Record<string, string> };
}

/**
 * ffprobe's view of a file. `maxPixels` is passed on to the decoders ffprobe may open to complete
 * the stream's parameters: a frame larger than that is not decoded (the size stated by the
 * container is still reported, and the limits refuse it).
 */
export async function probe(ffprobe: string, file: string, kind: 'video' | 'image', signal?: AbortSignal, maxPixels?: number): Promise<ProbeResult> {
  const unreadable = kind === 'video' ? ProcessingFailure.unreadableVideo : ProcessingFailure.unreadableImage;
  let output: FfprobeOutput;
  let stderr = '';
  try {
    const limit = maxPixels ? ['-max_pixels', String(Math.ceil(maxPixels))] : [];
    const json = await run(ffprobe, ['-v', 'error', ...limit, '-print_format', 'json', '-show_format', '-show_streams', file], {
      signal,
      onStderr: (text) => (stderr = text),
    });
    output = JSON.parse(json) as FfprobeOutput;
  } catch (error) {
    if (signal?.aborted) throw error;
    throw unreadable(error);
  }
  // The decoder refused a frame past the limit (and the stream's size is then reported as 0 x 0).
  const refused = /Picture size (\d+)x(\d+) exceeds specified max pixel count/.exec(stderr);
  if (refused && maxPixels) {
    const [width, height] = [Number(refused[1]), Number(refused[2])];
    throw kind === 'video' ? ProcessingFailure.frameTooLarge(width, height, maxPixels) : ProcessingFailure.imageTooLarge(width, height, maxPixels);
  }
  const streams = output.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic && (s.width ?? 0) > 0 && (s.height ?? 0) > 0);
  if (!video) throw unreadable(new Error('no video stream'));

  const width = video.width!;
  const height = video.height!;
  const rotation = rotationOf(video);
  const sar = ratio(video.sample_aspect_ratio);
  // Display size: sample aspect ratio widens (or narrows) the picture, rotation swaps the sides.
  let displayWidth = sar > 0 && Math.abs(sar - 1) > 0.01 ? Math.round(width * sar) : width;
  let displayHeight = height;
  if (rotation === 90 || rotation === 270) [displayWidth, displayHeight] = [displayHeight, displayWidth];

  const fps = ratio(video.avg_frame_rate) || ratio(video.r_frame_rate);
  let duration = kind === 'image' ? 0 : Number(output.format?.duration ?? video.duration ?? 0) || 0;
  // Browsers' MediaRecorder writes WebM without a duration: read it off the packets instead.
  if (kind === 'video' && !(duration > 0)) duration = await durationFromPackets(ffprobe, file, signal).catch(() => 0);
  if (kind === 'video' && !(duration > 0)) throw unreadable(new Error('no duration'));

  const result: ProbeResult = {
    duration,
    width,
    height,
    rotation,
    displayWidth,
    displayHeight,
    codec: video.codec_name ?? 'unknown',
    pixelFormat: video.pix_fmt ?? '',
    fps: fps > 0 && fps < 1000 ? fps : 0,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    formatName: output.format?.format_name ?? '',
  };
  const createdAt = recordingTime([output.format?.tags, video.tags, ...streams.map((s) => s.tags)]);
  if (createdAt) result.createdAt = createdAt;
  return result;
}

/** The end of the last video packet, in seconds (pts + duration), relative to the first one. */
async function durationFromPackets(ffprobe: string, file: string, signal?: AbortSignal): Promise<number> {
  const csv = await run(ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0', file], { signal });
  let first = Number.POSITIVE_INFINITY;
  let end = 0;
  for (const line of csv.split('\n')) {
    const [pts, length] = line.split(',').map(Number);
    if (!Number.isFinite(pts)) continue;
    first = Math.min(first, pts!);
    end = Math.max(end, pts! + (Number.isFinite(length) ? length! : 0));
  }
  return Number.isFinite(first) ? Math.max(0, end - first) : 0;
}

function ratio(value: string | undefined): number {
  if (!value) return 0;
  const [num, den] = value.split(/[:/]/).map(Number);
  if (!Number.isFinite(num) || !Number.isFinite(den) || !den) return 0;
  return num! / den;
}

/** Rotation from the display matrix (ffmpeg ≥ 5 reports it counter-clockwise negative) or the old `rotate` tag. */
function rotationOf(stream: FfprobeStream): number {
  const matrix = stream.side_data_list?.find((d) => d.side_data_type === 'Display Matrix' && typeof d.rotation === 'number');
  const degrees = matrix ? -matrix.rotation! : Number(stream.tags?.rotate ?? 0);
  const normalised = (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
  return Number.isFinite(normalised) ? normalised : 0;
}

const EPOCH_ISH = Date.UTC(1971, 0, 1);

/** The first plausible recording time among the tags (cameras write 1904/1970 when they do not know). */
function recordingTime(tagSets: Array<Record<string, string> | undefined>): string | undefined {
  for (const tags of tagSets) {
    if (!tags) continue;
    for (const key of ['com.apple.quicktime.creationdate', 'creation_time', 'date']) {
      const value = Object.entries(tags).find(([k]) => k.toLowerCase() === key)?.[1];
      if (!value) continue;
      const time = Date.parse(value);
      if (Number.isFinite(time) && time > EPOCH_ISH && time < Date.now() + 24 * 3600_000) return new Date(time).toISOString();
    }
  }
  return undefined;
}
