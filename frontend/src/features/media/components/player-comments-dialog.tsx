import { createContext, useContext, useId, useMemo, useState } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { ReportCommentButton } from '../../../components/ui/comment-report';
import { CommentTimesContext } from '../../../components/ui/comment-times';
import { FilteredCommentText } from '../../../components/ui/filtered-comment-text';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { SendIcon } from '../../../components/ui/icons';
import { useCommentDraft } from '../../../components/ui/use-comment-draft';
import { formatRelativeTime } from '../../../lib/format';
import type { VideoComment } from '../api/get-video-comments';
import { useVideoCommentReplies } from '../api/get-video-comment-replies';
import { type CommentModeration, HideCommentButton } from './player-comment-moderation';

const ModerationContext = createContext<CommentModeration | null>(null);
/** Staff reviewing what the moderators took out read its comments and act on none (no report either). */
const ReadOnlyContext = createContext(false);

function CommentForm({ label, placeholder, pending, onSubmit }: { label: string; placeholder: string; pending: boolean; onSubmit: (text: string) => Promise<boolean> }) {
  const id = useId();
  const { content, setContent, text, submit } = useCommentDraft(pending, onSubmit);
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
  const moderation = useContext(ModerationContext);
  const readOnly = useContext(ReadOnlyContext);
  return (
    <div className="player-comments__comment">
      <Avatar name={name} src={comment.user.avatar} size="sm" />
      <div className="player-comments__body">
        <p className="player-comments__meta">
          <strong>{name}</strong> <time dateTime={comment.createdAt}>{formatRelativeTime(comment.createdAt)}</time>
          {comment.pinned ? <span className="player-comments__mark">Pinned</span> : null}
          {comment.held ? <span className="player-comments__mark player-comments__mark--held">Waiting for approval</span> : null}
          {comment.removedByModerators ? <span className="player-comments__mark player-comments__mark--removed">Hidden by moderators</span> : null}
        </p>
        <FilteredCommentText className="player-comments__text" text={comment.content} hidden={'hiddenByFilters' in comment && comment.hiddenByFilters === true} />
        <div className="player-comments__actions">
          {onReply && !readOnly ? (
            <button type="button" className="button button--ghost button--small" onClick={onReply}>
              Reply
            </button>
          ) : null}
          {readOnly ? null : mine(comment.userId) ? (
            <button type="button" className="button button--ghost button--small" onClick={() => onDelete(comment.id)} aria-label={`Delete your comment: ${comment.content.slice(0, 40)}`}>
              Delete
            </button>
          ) : moderation?.deletesAny ? (
            <button type="button" className="button button--ghost button--small" onClick={() => onDelete(comment.id)} aria-label={`Delete comment from ${name}`}>
              Delete
            </button>
          ) : null}
          {moderation && !mine(comment.userId) ? <HideCommentButton moderation={moderation} commentId={comment.id} videoId={comment.videoId} name={name} /> : null}
          {readOnly ? null : <ReportCommentButton contentType="video_comment" commentId={comment.id} authorId={comment.userId} name={name} className="button button--ghost button--small" />}
        </div>
      </div>
    </div>
  );
}

/**
 * The replies a comment's entry leaves out (the list gives the first few and a cursor): "View N
 * more replies" loads them a page at a time, in place.
 */
function MoreReplies({ videoId, comment, mine, onDelete }: { videoId: string; comment: VideoComment; mine: (userId: string) => boolean; onDelete: (id: string) => void }) {
  const [asked, setAsked] = useState(false);
  const replies = useVideoCommentReplies(videoId, comment.id, comment.repliesCursor, asked);
  if (!comment.repliesCursor) return null;
  const loaded = replies.data?.pages.flatMap((page) => page.items) ?? [];
  const remaining = Math.max(comment.repliesCount - comment.replies.length - loaded.length, 0);
  const more = !asked || (replies.hasNextPage && !replies.isError);
  const loading = replies.isFetching;
  return (
    <>
      {loaded.map((reply) => (
        <li key={reply.id}>
          <CommentItem comment={reply} mine={mine} onDelete={onDelete} />
        </li>
      ))}
      {replies.isError ? <li className="player-comments__more">Replies could not be loaded.</li> : null}
      {more ? (
        <li className="player-comments__more">
          <button type="button" className="button button--ghost button--small" disabled={loading} onClick={() => (asked ? void replies.fetchNextPage() : setAsked(true))}>
            {loading ? 'Loading replies...' : remaining > 0 ? `View ${remaining} more ${remaining === 1 ? 'reply' : 'replies'}` : 'View more replies'}
          </button>
        </li>
      ) : null}
    </>
  );
}

export interface PlayerCommentsDialogProps {
  /** The video (its replies beyond the first few are loaded from it). */
  videoId: string;
  title: string;
  onOpenChange: (open: boolean) => void;
  comments: { data: VideoComment[] | undefined; isPending: boolean; isError: boolean };
  pending: boolean;
  /** Whether a comment's author is the signed-in person (who may delete it). */
  mine: (userId: string) => boolean;
  /** Posts a comment, or a reply to `parentId`; resolves to whether it was sent. */
  post: (parentId?: string) => (content: string) => Promise<boolean>;
  deleteComment: (id: string) => void;
  /** The video's length in seconds (0 when not known). */
  duration?: number;
  /** Seeks the video to a time written in a comment (`1:23`); the dialog then closes to show it. */
  onSeek?: (seconds: number) => void;
  /** The video's owner and editors delete any comment; moderators hide one through the desk. */
  moderation?: CommentModeration;
  /** Staff reviewing what the moderators took out: the comments are read only (no form, reply, delete or report). */
  readOnly?: boolean;
}

/** The video's comments: replies, deleting one's own, time-ago labels. Loaded on first open. */
export default function PlayerCommentsDialog({ videoId, title, onOpenChange, comments, pending, mine, post, deleteComment, duration = 0, onSeek, moderation, readOnly = false }: PlayerCommentsDialogProps) {
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const postReply = (parentId: string) => async (content: string) => {
    const sent = await post(parentId)(content);
    if (sent) setReplyTo(null);
    return sent;
  };
  const times = useMemo(
    () =>
      onSeek
        ? {
            duration,
            onSeek: (seconds: number) => {
              onSeek(seconds);
              onOpenChange(false);
            },
          }
        : null,
    [duration, onSeek, onOpenChange],
  );
  return (
    <ResponsiveDialog open onOpenChange={onOpenChange} title="Comments" description={title}>
      <CommentTimesContext.Provider value={times}>
      <ModerationContext.Provider value={moderation ?? null}>
      <ReadOnlyContext.Provider value={readOnly}>
      <div className="player-comments">
        {comments.isPending ? <p>Loading comments...</p> : null}
        {comments.isError ? <p>Comments could not be loaded.</p> : null}
        {comments.data && comments.data.length === 0 ? <p>{readOnly ? 'No comments.' : 'No comments yet. Be the first!'}</p> : null}
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
                  <MoreReplies videoId={videoId} comment={comment} mine={mine} onDelete={deleteComment} />
                </ul>
              ) : null}
              {replyTo === comment.id ? <CommentForm label="Send reply" placeholder="Write a reply..." pending={pending} onSubmit={postReply(comment.id)} /> : null}
            </li>
          ))}
        </ul>
        {readOnly ? null : <CommentForm label="Send comment" placeholder="Add a comment..." pending={pending} onSubmit={post()} />}
      </div>
      </ReadOnlyContext.Provider>
      </ModerationContext.Provider>
      </CommentTimesContext.Provider>
    </ResponsiveDialog>
  );
}
