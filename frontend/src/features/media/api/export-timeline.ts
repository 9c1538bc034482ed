import { apiRequest } from '../../../lib/api-client';
import type { ExportTimelineAnswer } from './types';

/** Asks for the timeline as one MP4; the answer must name where to download it (spec 001, section 5). */
export async function exportTimeline(timelineId: string, options: Record<string, unknown> = {}): Promise<string> {
  const answer = await apiRequest<Partial<ExportTimelineAnswer>>('POST', `/api/timelines/${encodeURIComponent(timelineId)}/export`, { options });
  if (typeof answer.downloadUrl !== 'string' || !answer.downloadUrl) throw new Error('No download URL in the export response');
  return answer.downloadUrl;
}

/** The download's file name: the title with every non-alphanumeric character as '_', then '.mp4'. */
export function exportFileName(title: string): string {
  return `${title.replace(/[^a-z0-9]/gi, '_') || 'timeline'}.mp4`;
}
