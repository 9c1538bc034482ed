import { useTimelineRealtime } from '../../../lib/realtime';
import type { MediaRealtimeMessage } from '../api/types';
import { parseMediaMessage } from '../lib/realtime-messages';

/** Calls `onMessage` with each well-formed media message about the timeline. */
export function useMediaEvents(timelineId: string, onMessage: (message: MediaRealtimeMessage) => void): void {
  useTimelineRealtime(timelineId, (message) => {
    const parsed = parseMediaMessage(message);
    if (parsed) onMessage(parsed);
  });
}

/** Whether a message ends processing (either name of the completion event, or an image). */
export function isProcessingDone(message: MediaRealtimeMessage): boolean {
  return (
    message.type === 'video_processing_completed' ||
    message.type === 'video_processing_complete' ||
    message.type === 'media_processing_completed' ||
    message.type === 'video_processing_error' ||
    message.type === 'media_processing_error'
  );
}
