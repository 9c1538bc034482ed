import { api, unwrap } from '../../../lib/api-client';
import { getExport } from './get-export';
import type { ExportTimelineAnswer } from './types';

export interface ExportWaitOptions {
  /** Between two status requests, ms. */
  pollMs?: number;
  /** Gives up waiting after this long, ms. */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Asks for the timeline as one MP4, named from its title; the answer must name where to download
 * it (spec 001, section 5). A long timeline may still be in the making when the request's own wait
 * runs out (202): its status is then asked for until it is done.
 */
export async function exportTimeline(timelineId: string, title: string, wait: ExportWaitOptions = {}): Promise<string> {
  const answer: ExportTimelineAnswer = await unwrap(api.POST('/api/timelines/{id}/export', { params: { path: { id: timelineId } }, body: { options: { title } } }));
  if (typeof answer.downloadUrl === 'string' && answer.downloadUrl) return answer.downloadUrl;
  if (typeof answer.exportId !== 'string' || !answer.exportId) throw new Error('No download URL in the export response');

  const { pollMs = 3000, timeoutMs = 15 * 60_000, sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) } = wait;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await sleep(pollMs);
    const status = await getExport(answer.exportId);
    if (status.status === 'completed' && status.downloadUrl) return status.downloadUrl;
    if (status.status === 'error') throw new Error(status.error || 'The export failed');
    if (Date.now() > deadline) throw new Error('The export is taking too long; try again later');
  }
}

/** The download's file name: the title with every non-alphanumeric character as '_', then '.mp4'. */
export function exportFileName(title: string): string {
  return `${title.replace(/[^a-z0-9]/gi, '_') || 'timeline'}.mp4`;
}
