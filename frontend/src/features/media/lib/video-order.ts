import type { Video, VideoStatus } from '../api/types';

export type SortMode = 'manual' | 'upload' | 'created';

export const SORT_MODE_LABEL: Record<SortMode, string> = {
  manual: 'Manual Order',
  upload: 'Upload Time',
  created: 'Created Time',
};

const time = (value: string | null | undefined): number => {
  const parsed = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(parsed) ? Number.POSITIVE_INFINITY : parsed;
};

/**
 * The videos in the order a mode shows: by position, by upload time, or by recording time
 * (upload time when a file carries none), oldest first, as the server orders them on Apply Order.
 */
export function sortVideos(videos: readonly Video[], mode: SortMode): Video[] {
  const byPosition = (a: Video, b: Video) => a.position - b.position;
  if (mode === 'manual') return [...videos].sort(byPosition);
  const key = (video: Video) => (mode === 'upload' ? time(video.uploadedAt) : time(video.metadata?.createdAt ?? video.uploadedAt));
  return [...videos].sort((a, b) => key(a) - key(b) || byPosition(a, b));
}

/** Spec 001 section 4: how each status reads; anything else is queued. */
export function videoStatusLabel(status: VideoStatus | string): string {
  switch (status) {
    case 'uploading':
      return 'Uploading...';
    case 'processing':
      return 'Processing...';
    case 'completed':
      return 'Complete';
    case 'error':
      return 'Error';
    default:
      return 'Queued';
  }
}
