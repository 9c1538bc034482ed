import { QueryClientContext } from '@tanstack/react-query';
import { useCallback, useContext, useState } from 'react';
import { videosQueryKey } from '../api/get-videos';
import type { Video } from '../api/types';
import type { UploadItem } from '../lib/upload-manager';

export interface AltPromptItem {
  mediaId: string;
  kind: 'image' | 'video';
  name: string;
}

/**
 * The uploads to ask alt text (images) or a description (videos) for: each one stored on the
 * server and not answered yet, here (Save or "Add later") or earlier, as the timeline's list in
 * the cache says (`altText`, `altTextDeferred`): an item is asked about once.
 */
export function useAltTextPrompts(timelineId: string, items: readonly UploadItem[]) {
  const [answered, setAnswered] = useState<ReadonlySet<string>>(() => new Set());
  // Read, not subscribed: the uploaders render again on every change of their queue.
  const queryClient = useContext(QueryClientContext);
  const known = new Map((queryClient?.getQueryData<Video[]>(videosQueryKey(timelineId)) ?? []).map((video) => [video.id, video]));
  const pending: AltPromptItem[] = items
    .filter((item) => item.mediaId && (item.status === 'processing' || item.status === 'completed') && !answered.has(item.mediaId))
    .filter((item) => {
      const video = known.get(item.mediaId!);
      return !video || (!video.altText && !video.altTextDeferred);
    })
    .map((item) => ({ mediaId: item.mediaId!, kind: item.kind, name: item.file.name }));
  const answer = useCallback((mediaId: string) => setAnswered((done) => new Set(done).add(mediaId)), []);
  return { pending, answer };
}
