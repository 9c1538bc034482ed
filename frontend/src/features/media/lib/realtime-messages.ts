import type { RealtimeMessage } from '../../../lib/realtime';
import type { MediaRealtimeMessage, MediaType } from '../api/types';

const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * A realtime message about media, checked field by field; anything else (another type, a field
 * missing or of the wrong type) is null and ignored.
 */
export function parseMediaMessage(message: RealtimeMessage): MediaRealtimeMessage | null {
  const { type, timelineId } = message;
  if (!isString(timelineId)) return null;
  switch (type) {
    case 'video_upload_started': {
      const video = message.video;
      if (!isObject(video) || !isString(video.id) || typeof video.originalName !== 'string') return null;
      return { type, timelineId, video: { id: video.id, originalName: video.originalName } };
    }
    case 'video_processing_progress': {
      const { videoId, progress } = message;
      if (!isString(videoId) || !isObject(progress) || typeof progress.progress !== 'number') return null;
      return {
        type,
        timelineId,
        videoId,
        progress: {
          stage: typeof progress.stage === 'string' ? progress.stage : '',
          progress: Math.max(0, Math.min(100, progress.progress)),
          message: typeof progress.message === 'string' ? progress.message : '',
        },
      };
    }
    case 'video_processing_completed':
    case 'video_processing_complete': {
      const video = message.video;
      if (!isObject(video) || !isString(video.id)) return null;
      return { type, timelineId, video: { id: video.id } };
    }
    case 'video_processing_error': {
      const { videoId, error } = message;
      if (!isString(videoId)) return null;
      return { type, timelineId, videoId, error: typeof error === 'string' ? error : '' };
    }
    case 'media_processing_completed':
    case 'media_processing_error': {
      const { mediaId, mediaType, error } = message;
      if (!isString(mediaId)) return null;
      const kind: MediaType = mediaType === 'image' ? 'image' : 'video';
      return { type, timelineId, mediaId, mediaType: kind, ...(typeof error === 'string' ? { error } : {}) };
    }
    default:
      return null;
  }
}
