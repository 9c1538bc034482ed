import { useInfiniteQuery } from '@tanstack/react-query';
import { api, nextCursorOf } from '../../../lib/api-client';
import { videoCommentsKey, type VideoComment } from './get-video-comments';

/** Replies loaded per "View more replies". */
export const REPLIES_PAGE_SIZE = 20;

export interface VideoCommentRepliesPage {
  items: VideoComment[];
  nextCursor: string | null;
}

/** Under the video's comments: a new reply or a deletion (which read the list again) reads these again too. */
export const videoCommentRepliesKey = (videoId: string, commentId: string) => [...videoCommentsKey(videoId), commentId, 'replies'] as const;

/** The replies after `cursor` (the list's `repliesCursor` first), oldest first. */
export async function getVideoCommentReplies(videoId: string, commentId: string, cursor: string): Promise<VideoCommentRepliesPage> {
  const { data, response } = await api.GET('/api/videos/{id}/comments/{commentId}/replies', {
    params: { path: { id: videoId, commentId }, query: { cursor, limit: REPLIES_PAGE_SIZE } },
  });
  return { items: data ?? [], nextCursor: nextCursorOf(response, cursor) };
}

/** The replies a comment's list entry left out, a page at a time once `enabled` (asked for). */
export function useVideoCommentReplies(videoId: string, commentId: string, firstCursor: string | null, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: videoCommentRepliesKey(videoId, commentId),
    queryFn: ({ pageParam }) => getVideoCommentReplies(videoId, commentId, pageParam),
    initialPageParam: firstCursor ?? '',
    getNextPageParam: (last: VideoCommentRepliesPage) => last.nextCursor ?? undefined,
    enabled: enabled && firstCursor !== null,
  });
}
