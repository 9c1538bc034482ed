import { api, type ApiSchemas } from '../../../lib/api-client';

export type TimelineView = ApiSchemas['RecordViewDto'];

function viewerTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records a view in the timeline's analytics. Sent with `keepalive`, so it still goes out while
 * the page is being hidden or closed; a failure is only logged.
 */
export function recordView(id: string, view: Omit<TimelineView, 'timeZone'>): void {
  const timeZone = viewerTimeZone();
  api
    .POST('/api/timelines/{id}/views', {
      params: { path: { id } },
      body: { watchTime: view.watchTime, completion: Math.max(0, Math.min(1, view.completion)), ...(timeZone ? { timeZone } : {}) },
      keepalive: true,
    })
    .catch((error: unknown) => console.warn('Could not record the view', error));
}
