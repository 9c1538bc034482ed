import { useId } from 'react';
import { formatRelativeTime } from '../../lib/format';
import { Avatar } from './avatar';
import { type ReportableComment, ReportCommentButton, useCanReport } from './comment-report';
import { FilteredCommentText } from './filtered-comment-text';
import { SendIcon } from './icons';
import { useCommentDraft } from './use-comment-draft';
import './comment-thread.css';

export interface ThreadComment {
  id: string;
  content: string;
  createdAt: string;
  user?: { id?: string | null; displayName?: string | null; username?: string | null; avatar?: string | null } | null;
  /** Hidden by the reader's filters (a muted account or word): collapsed, revealable. */
  hiddenByFilters?: boolean;
  /** Waiting for the item's moderators to approve it (shown to its author and them only). */
  held?: boolean;
  /** Pinned by the item's moderators: it comes first. */
  pinned?: boolean;
  /** Taken out by the moderation desk: only staff read it, here in its list, marked so. */
  removedByModerators?: boolean;
}

export interface CommentThreadProps {
  /** The list's accessible name ('Comments on ...'). */
  label: string;
  comments: readonly ThreadComment[] | undefined;
  loading: boolean;
  failed: boolean;
  pending: boolean;
  /** Gets the trimmed, non-empty text; resolves true when the comment was added. */
  onSubmit: (content: string) => Promise<boolean>;
  /** Why the caller may not comment (comment controls): shown instead of the field. */
  closedReason?: string | null;
  /** For the item's moderators: pin or unpin, delete. */
  onPin?: (comment: ThreadComment) => void;
  onDelete?: (comment: ThreadComment) => void;
  /** For the item's moderators: approve a comment waiting for approval. */
  onApprove?: (comment: ThreadComment) => void;
  /** What the comments are to a report: everyone signed in may report another person's comment. */
  reportAs?: ReportableComment;
}

/**
 * An item's comments with a one-line input and a send button: sent only when the trimmed text is
 * non-empty, trimmed before sending, Enter also sends (spec 000, section 5).
 */
export function CommentThread({ label, comments, loading, failed, pending, onSubmit, closedReason, onPin, onDelete, onApprove, reportAs }: CommentThreadProps) {
  const id = useId();
  const canReport = useCanReport();
  const { content, setContent, text, submit } = useCommentDraft(pending, onSubmit);

  let body;
  if (loading) body = <p className="comment-thread__note">Loading comments...</p>;
  else if (failed || !comments || comments.length === 0) body = <p className="comment-thread__note">No comments yet.</p>;
  else {
    body = (
      <ul className="comment-thread__list" aria-label={label}>
        {comments.map((comment) => {
          const name = comment.user?.displayName || comment.user?.username || 'Unknown User';
          const reportable = reportAs !== undefined && canReport(comment.user?.id);
          return (
            <li key={comment.id} className="comment-thread__item">
              <Avatar name={name} src={comment.user?.avatar} size="sm" />
              <div className="comment-thread__bubble">
                <p className="comment-thread__meta">
                  <strong>{name}</strong>{' '}
                  <time dateTime={comment.createdAt}>{formatRelativeTime(comment.createdAt)}</time>
                  {comment.pinned ? <span className="comment-thread__mark comment-thread__mark--pinned">Pinned</span> : null}
                  {comment.held ? <span className="comment-thread__mark comment-thread__mark--held">Waiting for approval</span> : null}
                  {comment.removedByModerators ? <span className="comment-thread__mark comment-thread__mark--removed">Hidden by moderators</span> : null}
                </p>
                <FilteredCommentText className="comment-thread__text" text={comment.content} hidden={comment.hiddenByFilters} />
                {onPin || onDelete || onApprove || reportable ? (
                  <p className="comment-thread__actions">
                    {onApprove && comment.held ? (
                      <button type="button" className="link-button" onClick={() => onApprove(comment)} aria-label={`Approve comment from ${name}`}>
                        Approve
                      </button>
                    ) : null}
                    {onPin && !comment.held ? (
                      <button type="button" className="link-button" onClick={() => onPin(comment)} aria-label={`${comment.pinned ? 'Unpin' : 'Pin'} comment from ${name}`}>
                        {comment.pinned ? 'Unpin' : 'Pin'}
                      </button>
                    ) : null}
                    {onDelete ? (
                      <button type="button" className="link-button" onClick={() => onDelete(comment)} aria-label={`Delete comment from ${name}`}>
                        Delete
                      </button>
                    ) : null}
                    {reportable ? <ReportCommentButton contentType={reportAs} commentId={comment.id} authorId={comment.user?.id} name={name} /> : null}
                  </p>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <div className="comment-thread">
      {body}
      {closedReason ? (
        <p className="comment-thread__closed" role="note">
          {closedReason}
        </p>
      ) : (
        <form className="comment-thread__form" onSubmit={(event) => void submit(event)}>
          <label htmlFor={`${id}-input`} className="visually-hidden">
            Write a comment
          </label>
          <input
            id={`${id}-input`}
            className="comment-thread__input"
            placeholder="Write a comment..."
            autoComplete="off"
            maxLength={2000}
            value={content}
            onChange={(event) => setContent(event.target.value)}
          />
          <button type="submit" className="icon-button" aria-label="Send comment" disabled={!text || pending}>
            <SendIcon width={18} height={18} />
          </button>
        </form>
      )}
    </div>
  );
}
