import { useId, useState, type FormEvent } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { ReportCommentButton } from '../../../components/ui/comment-report';
import { FilteredCommentText } from '../../../components/ui/filtered-comment-text';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { formatDuration, formatRelativeTime } from '../../../lib/format';
import { useAddTimelineComment } from '../api/add-timeline-comment';
import { useTimelineComments, type TimelineComment } from '../api/get-timeline-comments';
import { parseTimestamp } from '../lib/timestamp';
import '../../../components/ui/field.css';
import './comments.css';

/** How many comments the studio shows (spec 001, section 9). */
export const RECENT_COMMENTS = 5;

export interface TimelineCommentsProps {
  timelineId: string;
  onCommentAdded?: (comment: TimelineComment) => void;
}

function CommentForm({ timelineId, onCommentAdded }: TimelineCommentsProps) {
  const id = useId();
  const [content, setContent] = useState('');
  const [minutes, setMinutes] = useState('');
  const [seconds, setSeconds] = useState('');
  const [timestampError, setTimestampError] = useState<string>();
  const add = useAddTimelineComment({
    onSuccess: (comment) => {
      setContent('');
      setMinutes('');
      setSeconds('');
      onCommentAdded?.(comment);
    },
    onError: () => toast({ title: 'Failed to Add Comment', description: 'Please try again', variant: 'destructive' }),
  });
  const blank = !content.trim();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (blank || add.isPending) return;
    const timestamp = parseTimestamp(minutes, seconds);
    if (timestamp.error !== undefined) {
      setTimestampError(timestamp.error);
      return;
    }
    setTimestampError(undefined);
    add.mutate({ timelineId, comment: { content: content.trim(), timestamp: timestamp.seconds } });
  };

  return (
    <form className="comment-form" onSubmit={onSubmit} noValidate aria-label="Add a comment">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-content`}>
          Comment
        </label>
        <textarea
          id={`${id}-content`}
          className="field__input comment-form__text"
          rows={2}
          maxLength={2000}
          placeholder="Share feedback with your team..."
          value={content}
          onChange={(event) => setContent(event.target.value)}
        />
      </div>
      <fieldset className="comment-form__time" aria-describedby={timestampError ? `${id}-time-error` : `${id}-time-hint`}>
        <legend className="field__label">Timestamp (m:ss)</legend>
        <div className="comment-form__time-inputs">
          <label className="visually-hidden" htmlFor={`${id}-minutes`}>
            Minutes
          </label>
          <input
            id={`${id}-minutes`}
            className="field__input comment-form__number"
            inputMode="numeric"
            pattern="[0-9]*"
            placeholder="0"
            value={minutes}
            aria-invalid={timestampError ? true : undefined}
            onChange={(event) => setMinutes(event.target.value)}
          />
          <span aria-hidden="true">:</span>
          <label className="visually-hidden" htmlFor={`${id}-seconds`}>
            Seconds
          </label>
          <input
            id={`${id}-seconds`}
            className="field__input comment-form__number"
            inputMode="numeric"
            pattern="[0-9]*"
            placeholder="00"
            maxLength={2}
            value={seconds}
            aria-invalid={timestampError ? true : undefined}
            onChange={(event) => setSeconds(event.target.value)}
          />
        </div>
        {timestampError ? (
          <p className="field__error" id={`${id}-time-error`}>
            {timestampError}
          </p>
        ) : (
          <p className="field__hint" id={`${id}-time-hint`}>
            The moment in the timeline the comment is about.
          </p>
        )}
      </fieldset>
      <div>
        <button type="submit" className="button button--primary" disabled={blank || add.isPending}>
          {add.isPending ? 'Adding...' : 'Add Comment'}
        </button>
      </div>
    </form>
  );
}

function CommentItem({ comment }: { comment: TimelineComment }) {
  const name = comment.user?.displayName || comment.userName;
  return (
    <li className="comment">
      <Avatar name={name} src={comment.user?.avatar} size="sm" />
      <div className="comment__body">
        <p className="comment__meta">
          <span className="comment__author">{name}</span>
          <span className="comment__time">
            at <span className="comment__timestamp">{formatDuration(comment.timestamp)}</span>
          </span>
          <span className="comment__time">{formatRelativeTime(comment.createdAt)}</span>
          {comment.pinned ? <span className="comment__mark">Pinned</span> : null}
          {comment.held ? <span className="comment__mark comment__mark--held">Waiting for approval</span> : null}
          {comment.removedByModerators ? <span className="comment__mark comment__mark--removed">Hidden by moderators</span> : null}
        </p>
        <FilteredCommentText className="comment__content" text={comment.content} hidden={'hiddenByFilters' in comment && comment.hiddenByFilters === true} />
        <ReportCommentButton contentType="timeline_comment" commentId={comment.id} authorId={comment.userId} name={name} />
      </div>
    </li>
  );
}

/** The studio's recent comments (the newest five) and the field to add one. */
export function TimelineComments({ timelineId, onCommentAdded }: TimelineCommentsProps) {
  const comments = useTimelineComments(timelineId);
  const recent = (comments.data ?? []).slice(0, RECENT_COMMENTS);
  return (
    <div className="comments">
      <h3 className="comments__title">Recent Comments</h3>
      {comments.isPending ? (
        <Spinner label="Loading comments..." />
      ) : comments.isError ? (
        <p className="comments__empty">
          Comments could not be loaded.{' '}
          <button type="button" className="link-button" onClick={() => void comments.refetch()}>
            Try again
          </button>
        </p>
      ) : recent.length === 0 ? (
        <p className="comments__empty">No comments yet.</p>
      ) : (
        <ul className="comments__list" aria-label="Recent comments">
          {recent.map((comment) => (
            <CommentItem key={comment.id} comment={comment} />
          ))}
        </ul>
      )}
      <CommentForm timelineId={timelineId} onCommentAdded={onCommentAdded} />
    </div>
  );
}
