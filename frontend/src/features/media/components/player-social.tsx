import { lazy, Suspense, useState } from 'react';
import { CommentIcon, HeartIcon } from '../../../components/ui/icons';
import { toast } from '../../../components/ui/toast';
import { useUser } from '../../../lib/current-user';
import { useAddVideoComment } from '../api/add-video-comment';
import { useDeleteVideoComment } from '../api/delete-video-comment';
import { useVideoComments, type VideoComment } from '../api/get-video-comments';
import { useVideoLike } from '../api/get-video-like';
import { useToggleVideoLike } from '../api/like-video';
import type { CommentModeration } from './player-comment-moderation';

// Loaded the first time someone opens the comments.
const PlayerCommentsDialog = lazy(() => import('./player-comments-dialog'));

/** Counts on the player's buttons stop at 99+ (spec 001, Watch player). */
export const playerCount = (count: number): string => (count > 99 ? '99+' : String(count));

const commentsIn = (list: readonly VideoComment[] | undefined) => (list ?? []).reduce((sum, comment) => sum + 1 + comment.replies.length, 0);

/**
 * The watch player's like and comment buttons for the video on screen, with counts (99+), and the
 * video's comments dialog (player-comments-dialog.tsx). Signed in only (spec 001).
 * `onCommentsOpenChange` lets the player pause while the dialog is open and resume after.
 */
export interface PlayerSocialProps {
  videoId: string;
  title: string;
  onCommentsOpenChange: (open: boolean) => void;
  /** The video's length in seconds (0 when not known): times written in comments up to it seek. */
  duration?: number;
  /** Seeks the video to a time written in a comment (the comments then close). */
  onSeek?: (seconds: number) => void;
  /** What the video's owner and editors, and the moderators, may do to its comments. */
  moderation?: CommentModeration | undefined;
  /** Staff reviewing what the moderators took out: its comments are read, nothing is liked or written. */
  readOnly?: boolean;
}

export function PlayerSocial(props: PlayerSocialProps) {
  const user = useUser();
  if (!user.data) return null;
  if (props.readOnly) return <ReadOnlyPlayerSocial key={props.videoId} {...props} />;
  return <SignedInPlayerSocial key={props.videoId} {...props} userId={user.data.id} />;
}

const nobody = () => false;
const noPost = () => async () => false;
const noDelete = () => undefined;

/** The comments button and dialog alone, read-only: no like, no comment, reply, delete or report. */
function ReadOnlyPlayerSocial({ videoId, title, onCommentsOpenChange, duration = 0, onSeek, moderation }: PlayerSocialProps) {
  const [open, setOpen] = useState(false);
  const comments = useVideoComments(videoId, true);
  const count = commentsIn(comments.data);
  const changeOpen = (next: boolean) => {
    setOpen(next);
    onCommentsOpenChange(next);
  };
  return (
    <div className="player__social player__chrome">
      <button type="button" className="player__icon-button player__social-button" aria-label={`Comments, ${playerCount(count)}`} onClick={() => changeOpen(true)}>
        <CommentIcon width={26} height={26} />
        <span aria-hidden="true">{playerCount(count)}</span>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <PlayerCommentsDialog
            videoId={videoId}
            title={title}
            onOpenChange={changeOpen}
            comments={comments}
            pending={false}
            mine={nobody}
            post={noPost}
            deleteComment={noDelete}
            readOnly
            {...(moderation ? { moderation } : {})}
            duration={duration}
            {...(onSeek ? { onSeek } : {})}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

function SignedInPlayerSocial({ videoId, title, userId, onCommentsOpenChange, duration = 0, onSeek, moderation }: PlayerSocialProps & { userId: string }) {
  const [open, setOpen] = useState(false);
  const like = useVideoLike(videoId);
  const toggle = useToggleVideoLike(videoId);
  const comments = useVideoComments(videoId, true);
  const add = useAddVideoComment(videoId);
  const remove = useDeleteVideoComment(videoId);
  const liked = like.data?.isLiked ?? false;
  const likes = like.data?.likesCount ?? 0;
  const count = commentsIn(comments.data);

  const changeOpen = (next: boolean) => {
    setOpen(next);
    onCommentsOpenChange(next);
  };
  const post = (parentId?: string) => async (content: string) => {
    try {
      await add.mutateAsync({ content, ...(parentId ? { parentId } : {}) });
      return true;
    } catch {
      toast({ title: parentId ? 'Failed to post reply' : 'Failed to post comment', variant: 'destructive', description: 'Please try again' });
      return false;
    }
  };
  const deleteComment = (id: string) => {
    remove.mutate(id, { onError: () => toast({ title: 'Failed to delete comment', variant: 'destructive', description: 'Please try again' }) });
  };
  const mine = (authorId: string) => authorId === userId;

  return (
    <div className="player__social player__chrome">
      <button
        type="button"
        className={`player__icon-button player__social-button${liked ? ' player__social-button--on' : ''}`}
        aria-pressed={liked}
        aria-label={`${liked ? 'Unlike' : 'Like'} this video, ${playerCount(likes)} ${likes === 1 ? 'like' : 'likes'}`}
        onClick={() => toggle.mutate(!liked)}
        disabled={like.isPending}
      >
        <HeartIcon width={26} height={26} fill={liked ? 'currentColor' : 'none'} />
        <span aria-hidden="true">{playerCount(likes)}</span>
      </button>
      <button type="button" className="player__icon-button player__social-button" aria-label={`Comments, ${playerCount(count)}`} onClick={() => changeOpen(true)}>
        <CommentIcon width={26} height={26} />
        <span aria-hidden="true">{playerCount(count)}</span>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <PlayerCommentsDialog
            videoId={videoId}
            title={title}
            onOpenChange={changeOpen}
            comments={comments}
            pending={add.isPending}
            mine={mine}
            post={post}
            deleteComment={deleteComment}
            {...(moderation ? { moderation } : {})}
            duration={duration}
            {...(onSeek ? { onSeek } : {})}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
