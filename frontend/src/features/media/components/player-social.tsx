import { useId, useState, type FormEvent } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { CommentIcon, HeartIcon, SendIcon } from '../../../components/ui/icons';
import { toast } from '../../../components/ui/toast';
import { formatRelativeTime } from '../../../lib/format';
import { useUser } from '../../auth/api/get-me';
import { useToggleVideoLike, useVideoCommentActions, useVideoComments, useVideoLike, type VideoComment } from '../api/video-social';

/** Counts on the player's buttons stop at 99+ (spec 001, Watch player). */
export const playerCount = (count: number): string => (count > 99 ? '99+' : String(count));

const commentsIn = (list: readonly VideoComment[] | undefined) => (list ?? []).reduce((sum, comment) => sum + 1 + comment.replies.length, 0);

function CommentForm({ label, placeholder, pending, onSubmit }: { label: string; placeholder: string; pending: boolean; onSubmit: (text: string) => Promise<boolean> }) {
  const id = useId();
  const [content, setContent] = useState('');
  const text = content.trim();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text || pending) return;
    if (await onSubmit(text)) setContent('');
  };
  return (
    <form className="player-comments__form" onSubmit={(event) => void submit(event)}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input id={id} value={content} onChange={(event) => setContent(event.target.value)} placeholder={placeholder} maxLength={2000} autoComplete="off" />
      <button type="submit" className="button button--primary button--icon" disabled={!text || pending} aria-label={label}>
        <SendIcon width={18} height={18} />
      </button>
    </form>
  );
}

function CommentItem({ comment, mine, onReply, onDelete }: { comment: VideoComment; mine: (userId: string) => boolean; onReply?: () => void; onDelete: (id: string) => void }) {
  const name = comment.user.displayName || comment.userName;
  return (
    <div className="player-comments__comment">
      <Avatar name={name} src={comment.user.avatar} size="sm" />
      <div className="player-comments__body">
        <p className="player-comments__meta">
          <strong>{name}</strong> <time dateTime={comment.createdAt}>{formatRelativeTime(comment.createdAt)}</time>
        </p>
        <p className="player-comments__text">{comment.content}</p>
        <div className="player-comments__actions">
          {onReply ? (
            <button type="button" className="button button--ghost button--small" onClick={onReply}>
              Reply
            </button>
          ) : null}
          {mine(comment.userId) ? (
            <button type="button" className="button button--ghost button--small" onClick={() => onDelete(comment.id)} aria-label={`Delete your comment: ${comment.content.slice(0, 40)}`}>
              Delete
            </button>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/**
 * The watch player's like and comment buttons for the video on screen, with counts (99+), and the
 * video's comments dialog: replies, deleting one's own, time-ago labels. Signed in only (spec 001).
 * `onCommentsOpenChange` lets the player pause while the dialog is open and resume after.
 */
export function PlayerSocial({ videoId, title, onCommentsOpenChange }: { videoId: string; title: string; onCommentsOpenChange: (open: boolean) => void }) {
  const user = useUser();
  if (!user.data) return null;
  return <SignedInPlayerSocial key={videoId} videoId={videoId} title={title} userId={user.data.id} onCommentsOpenChange={onCommentsOpenChange} />;
}

function SignedInPlayerSocial({ videoId, title, userId, onCommentsOpenChange }: { videoId: string; title: string; userId: string; onCommentsOpenChange: (open: boolean) => void }) {
  const [open, setOpen] = useState(false);
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const like = useVideoLike(videoId);
  const toggle = useToggleVideoLike(videoId);
  const comments = useVideoComments(videoId, true);
  const { add, remove } = useVideoCommentActions(videoId);
  const liked = like.data?.isLiked ?? false;
  const likes = like.data?.likesCount ?? 0;
  const count = commentsIn(comments.data);

  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next) setReplyTo(null);
    onCommentsOpenChange(next);
  };
  const post = (parentId?: string) => async (content: string) => {
    try {
      await add.mutateAsync({ content, ...(parentId ? { parentId } : {}) });
      if (parentId) setReplyTo(null);
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
      <ResponsiveDialog open={open} onOpenChange={changeOpen} title="Comments" description={title}>
        <div className="player-comments">
          {comments.isPending ? <p>Loading comments...</p> : null}
          {comments.isError ? <p>Comments could not be loaded.</p> : null}
          {comments.data && comments.data.length === 0 ? <p>No comments yet. Be the first!</p> : null}
          <ul className="player-comments__list" aria-label={`Comments on ${title}`}>
            {(comments.data ?? []).map((comment) => (
              <li key={comment.id}>
                <CommentItem comment={comment} mine={mine} onReply={() => setReplyTo(replyTo === comment.id ? null : comment.id)} onDelete={deleteComment} />
                {comment.replies.length > 0 ? (
                  <ul className="player-comments__replies" aria-label={`Replies to ${comment.user.displayName || comment.userName}`}>
                    {comment.replies.map((reply) => (
                      <li key={reply.id}>
                        <CommentItem comment={reply} mine={mine} onDelete={deleteComment} />
                      </li>
                    ))}
                  </ul>
                ) : null}
                {replyTo === comment.id ? <CommentForm label="Send reply" placeholder="Write a reply..." pending={add.isPending} onSubmit={post(comment.id)} /> : null}
              </li>
            ))}
          </ul>
          <CommentForm label="Send comment" placeholder="Add a comment..." pending={add.isPending} onSubmit={post()} />
        </div>
      </ResponsiveDialog>
    </div>
  );
}
