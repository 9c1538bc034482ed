import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';

/** What may be done to a video's comments beyond deleting one's own (put in by the page). */
export interface CommentModeration {
  /** The video's timeline owner and editors delete any comment on it. */
  deletesAny: boolean;
  /**
   * The moderators' hide (the moderation desk's decision, with a reason), or null for everyone
   * else. A hook: asked when the comments are first shown, not with the player.
   */
  useHide: () => ((commentId: string, reason: string) => Promise<void>) | null;
}

/** "Hide" for moderators: asks why (the author is told, the audit log keeps it), then hides the comment everywhere. */
export function HideCommentButton({ moderation, commentId, videoId, name }: { moderation: CommentModeration; commentId: string; videoId: string; name: string }) {
  const hide = moderation.useHide();
  const queryClient = useQueryClient();
  const id = useId();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  if (!hide) return null;
  if (!asking) {
    return (
      <button type="button" className="button button--ghost button--small" onClick={() => setAsking(true)} aria-label={`Hide comment from ${name}`}>
        Hide
      </button>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const why = reason.trim();
    if (!why || busy) return;
    setBusy(true);
    try {
      await hide(commentId, why);
      toast({ title: 'Comment hidden', description: 'Its author is told why.' });
      await queryClient.invalidateQueries({ queryKey: ['videos', videoId, 'comments'] });
    } catch (error) {
      toast({ title: 'Could not hide the comment', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
      setBusy(false);
    }
  };
  return (
    <form className="player-comments__hide" onSubmit={(event) => void submit(event)}>
      <label htmlFor={id}>Why hide it? (its author is told)</label>
      <input id={id} value={reason} onChange={(event) => setReason(event.target.value)} maxLength={1000} autoComplete="off" autoFocus />
      <button type="submit" className="button button--danger button--small" disabled={!reason.trim() || busy}>
        Hide comment
      </button>
      <button type="button" className="button button--ghost button--small" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </form>
  );
}
