import { CommentThread } from '../../components/ui/comment-thread';
import { useAddTimelineComment } from '../../features/comments/api/add-timeline-comment';
import { useCommentSettings, useDeleteComment, usePinComment } from '../../features/comments/api/comment-controls';
import { useTimelineComments } from '../../features/comments/api/get-timeline-comments';
import { useFeedCache } from '../../features/feed/api/feed-cache';

export interface TimelineCommentsProps {
  timelineId: string;
  label: string;
}

/**
 * An opened timeline card's comments: the thread, its composer (or why there is none: comment
 * controls) and pin and delete for the timeline's team. Loaded when a thread is first opened, so a
 * feed's first paint sends none of it.
 */
export function TimelineComments({ timelineId, label }: TimelineCommentsProps) {
  const comments = useTimelineComments(timelineId, { enabled: true });
  const commentSettings = useCommentSettings(timelineId, { enabled: true });
  const moderates = commentSettings.data?.canModerate === true;
  const pinComment = usePinComment(timelineId);
  const deleteComment = useDeleteComment(timelineId);
  const feedCache = useFeedCache();
  // Spec 000 sends `{content}` only; the card counts the comment at once (a held one once approved).
  const addComment = useAddTimelineComment({
    onSuccess: (comment) => {
      if (!comment.held) void feedCache.patchTimeline(timelineId, (current) => ({ commentsCount: current.commentsCount + 1 }));
    },
  });
  return (
    <CommentThread
      label={label}
      comments={comments.data}
      loading={comments.isPending}
      failed={comments.isError}
      pending={addComment.isPending}
      onSubmit={(content) => addComment.mutateAsync({ timelineId, comment: { content } }).then(() => true, () => false)}
      closedReason={commentSettings.data?.reason}
      reportAs="timeline_comment"
      {...(moderates
        ? {
            onPin: (comment) => pinComment.mutate({ commentId: comment.id, pinned: !comment.pinned }),
            onDelete: (comment) => deleteComment.mutate({ id: comment.id, kind: 'timeline', targetId: timelineId }),
          }
        : {})}
    />
  );
}
