import { Link } from 'react-router';
import './moderation-review-note.css';

/**
 * What staff read over something the moderation desk took out, opened in context from the desk (a
 * post on its page, a timeline in the player): it is hidden from everyone else and shown to them
 * read-only, with the way back to the desk. Everyone else is never sent such an item.
 */
export function ModerationReviewNote({ reason, className }: { reason?: string | null; className?: string }) {
  return (
    <p className={className ? `moderation-review-note ${className}` : 'moderation-review-note'} role="note">
      <strong>Hidden by moderators.</strong> {reason ? `Reason: ${reason}. ` : null}Everyone else is told it does not exist. Shown here to staff, read-only, for review.{' '}
      <Link to="/moderation">Back to the moderation desk</Link>
    </p>
  );
}
