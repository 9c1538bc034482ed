import { useId } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { Badge } from '../../../components/ui/badge';
import { CommentSettingsForm, commentSettingsKey } from '../../../components/ui/comment-settings-form';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatRelativeTime } from '../../../lib/format';
import {
  type CommentSettings, type HeldComment, useApproveComment, useCommentSettings, useDeleteComment, useHeldComments, useSaveCommentSettings,
} from '../api/comment-controls';
import './comments.css';

function SettingsForm({ timelineId, settings }: { timelineId: string; settings: CommentSettings }) {
  const save = useSaveCommentSettings(timelineId);
  return (
    <CommentSettingsForm
      settings={settings}
      followersOf="the owner"
      pending={save.isPending}
      onSave={(rules) =>
        save.mutate(rules, {
          onSuccess: () => toast({ title: 'Comment settings saved' }),
          onError: (error) => toast({ title: 'Comment settings not saved', description: errorMessage(error, 'Please try again'), variant: 'destructive' }),
        })
      }
    />
  );
}

function HeldItem({ timelineId, comment }: { timelineId: string; comment: HeldComment }) {
  const approve = useApproveComment(timelineId);
  const remove = useDeleteComment(timelineId);
  const name = comment.user.displayName || comment.user.username || 'Unknown User';
  const busy = approve.isPending || remove.isPending;
  const failed = (title: string) => (error: unknown) => toast({ title, description: errorMessage(error, 'Please try again'), variant: 'destructive' });
  return (
    <li className="comment">
      <Avatar name={name} src={comment.user.avatar} size="sm" />
      <div className="comment__body">
        <p className="comment__meta">
          <span className="comment__author">{name}</span>
          <span className="comment__time">{comment.kind === 'video' ? 'on a video' : 'on the timeline'}</span>
          <span className="comment__time">{formatRelativeTime(comment.createdAt)}</span>
        </p>
        <p className="comment__content">{comment.content}</p>
        <div className="comment-controls__actions">
          <button type="button" className="button button--primary button--sm" disabled={busy} aria-label={`Approve comment from ${name}`} onClick={() => approve.mutate(comment, { onError: failed('Comment not approved') })}>
            Approve
          </button>
          <button type="button" className="button button--danger button--sm" disabled={busy} aria-label={`Delete comment from ${name}`} onClick={() => remove.mutate(comment, { onError: failed('Comment not deleted') })}>
            Delete
          </button>
        </div>
      </div>
    </li>
  );
}

/**
 * The studio's comment controls, for the timeline's owner and editors: who may comment, which
 * comments wait for approval, and the approval queue with its count. Nothing for anyone else.
 */
export function CommentControlsPanel({ timelineId }: { timelineId: string }) {
  const id = useId();
  const settings = useCommentSettings(timelineId);
  const moderator = settings.data?.canModerate === true;
  const held = useHeldComments(timelineId, { enabled: moderator });
  if (!moderator || !settings.data) return null;
  const count = held.data?.length ?? settings.data.heldCount ?? 0;
  return (
    <section className="card studio-section comment-controls" aria-labelledby={`${id}-title`}>
      <h2 className="studio-section__title" id={`${id}-title`}>
        Comment controls
      </h2>
      {/* Drawn again from what the server holds whenever it changes. */}
      <SettingsForm key={commentSettingsKey(settings.data)} timelineId={timelineId} settings={settings.data} />
      <div className="comments">
        <h3 className="comments__title" id={`${id}-queue`}>
          Waiting for approval <Badge tone={count > 0 ? 'warning' : 'neutral'}>{count}</Badge>
        </h3>
        {held.isPending ? (
          <Spinner label="Loading comments waiting for approval..." />
        ) : held.isError ? (
          <p className="comments__empty">
            The queue could not be loaded.{' '}
            <button type="button" className="link-button" onClick={() => void held.refetch()}>
              Try again
            </button>
          </p>
        ) : held.data.length === 0 ? (
          <p className="comments__empty">No comments are waiting for approval.</p>
        ) : (
          <ul className="comments__list" aria-labelledby={`${id}-queue`}>
            {held.data.map((comment) => (
              <HeldItem key={comment.id} timelineId={timelineId} comment={comment} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
