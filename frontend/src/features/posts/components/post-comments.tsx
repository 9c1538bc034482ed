import { CommentThread } from '../../../components/ui/comment-thread';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAddPostComment } from '../api/add-post-comment';
import { usePostComments } from '../api/get-post-comments';
import { usePostCommentModeration, usePostCommentSettings } from '../api/post-comment-controls';
import type { PostStore } from '../api/types';

export interface PostCommentsProps {
  postId: string;
  store: PostStore;
  label: string;
  /** The post's author approves, pins and deletes the comments on it. */
  isAuthor: boolean;
}

/**
 * An opened post's comments: the thread, its composer (or why there is none) and the author's
 * comment controls. Loaded when a thread is first opened, so a feed's first paint sends none of it.
 */
export function PostComments({ postId, store, label, isAuthor }: PostCommentsProps) {
  const comments = usePostComments(postId, { enabled: true });
  const addComment = useAddPostComment(postId, store);
  const commentSettings = usePostCommentSettings(postId, { enabled: true });
  const moderation = usePostCommentModeration(postId, store);
  const failed = (title: string) => ({ onError: (error: unknown) => toast({ title, description: errorMessage(error, 'Please try again.'), variant: 'destructive' }) });
  return (
    <CommentThread
      label={label}
      comments={comments.data}
      loading={comments.isPending}
      failed={comments.isError}
      pending={addComment.isPending}
      onSubmit={(content) => addComment.mutateAsync(content).then(() => true, () => false)}
      closedReason={commentSettings.data?.reason}
      reportAs="post_comment"
      {...(isAuthor
        ? {
            onApprove: (comment) => moderation.approve.mutate(comment.id, failed('Comment not approved')),
            onPin: (comment) => moderation.pin.mutate({ commentId: comment.id, pinned: !comment.pinned }, failed('Comment not pinned')),
            onDelete: (comment) => moderation.remove.mutate({ commentId: comment.id, held: comment.held === true }, failed('Comment not deleted')),
          }
        : {})}
    />
  );
}
