import { useId } from 'react';
import { formatRelativeTime } from '../../lib/format';
import { Avatar } from './avatar';
import { SendIcon } from './icons';
import { useCommentDraft } from './use-comment-draft';
import './comment-thread.css';

export interface ThreadComment {
  id: string;
  content: string;
  createdAt: string;
  user?: { displayName?: string | null; username?: string | null; avatar?: string | null } | null;
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
}

/**
 * An item's comments with a one-line input and a send button: sent only when the trimmed text is
 * non-empty, trimmed before sending, Enter also sends (spec 000, section 5).
 */
export function CommentThread({ label, comments, loading, failed, pending, onSubmit }: CommentThreadProps) {
  const id = useId();
  const { content, setContent, text, submit } = useCommentDraft(pending, onSubmit);

  let body;
  if (loading) body = <p className="comment-thread__note">Loading comments...</p>;
  else if (failed || !comments || comments.length === 0) body = <p className="comment-thread__note">No comments yet.</p>;
  else {
    body = (
      <ul className="comment-thread__list" aria-label={label}>
        {comments.map((comment) => {
          const name = comment.user?.displayName || comment.user?.username || 'Unknown User';
          return (
            <li key={comment.id} className="comment-thread__item">
              <Avatar name={name} src={comment.user?.avatar} size="sm" />
              <div className="comment-thread__bubble">
                <p className="comment-thread__meta">
                  <strong>{name}</strong>{' '}
                  <time dateTime={comment.createdAt}>{formatRelativeTime(comment.createdAt)}</time>
                </p>
                <p className="comment-thread__text">{comment.content}</p>
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
    </div>
  );
}
