import { useSyncExternalStore } from 'react';
import { getRealtimeClient, timelineTopic } from '../../../lib/realtime';
import { parseMediaMessage } from '../lib/realtime-messages';
import { makePreview, revokePreview } from '../lib/preview';
import { createTusTransport } from '../lib/tus-transport';
import { UploadManager, type UploadHooks, type UploadManagerOptions, type UploadSnapshot } from '../lib/upload-manager';

export type UploadQueueKind = 'media' | 'batch' | 'quick' | 'sheet';

/** Pause between two files: 500 ms for media uploads, 1 s in the batch uploader (spec 001, section 9). */
const GAP_MS: Record<UploadQueueKind, number> = { media: 500, batch: 1000, quick: 500, sheet: 500 };


/**
 * Upload queues outlive the screen that shows them: leaving the studio and coming back finds the
 * uploads still going and their progress still current.
 */
const queues = new Map<string, UploadManager>();

export function listenToTimeline(timelineId: string, onMessage: Parameters<NonNullable<UploadManagerOptions['listen']>>[1]) {
  return getRealtimeClient().subscribe(timelineTopic(timelineId), (message) => {
    const parsed = parseMediaMessage(message);
    if (parsed) onMessage(parsed);
  });
}

/** The queue of `kind` for a timeline, made on first use; `hooks` replace the previous ones. */
export function getUploadQueue(timelineId: string, kind: UploadQueueKind, hooks: UploadHooks = {}): UploadManager {
  const key = `${kind}:${timelineId}`;
  let queue = queues.get(key);
  if (!queue) {
    queue = new UploadManager({
      timelineId,
      transport: createTusTransport(),
      gapMs: GAP_MS[kind],
      autoStart: kind !== 'batch',
      listen: listenToTimeline,
      makePreview: kind === 'batch' || kind === 'sheet' ? makePreview : undefined,
      revokePreview,
      ...hooks,
    });
    queues.set(key, queue);
  } else {
    queue.setHooks(hooks);
  }
  return queue;
}

/** Forgets every queue (signing out, tests). */
export function disposeUploadQueues(): void {
  for (const queue of queues.values()) queue.dispose();
  queues.clear();
}

export function useUploadSnapshot(queue: UploadManager): UploadSnapshot {
  return useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);
}
