import { Badge } from '../../../components/ui/badge';
import type { InvitationDetail } from '../api/get-invitation';
import { expiryText, isExpired } from '../lib/expiry';
import { roleDescription, roleLabel } from '../lib/roles';
import './collaboration.css';

export const EXPIRED_MESSAGE = 'This invitation has expired. Please ask for a new one.';

export interface InvitationDetailsProps {
  detail: InvitationDetail;
  accepting: boolean;
  /** Accept waits (for the session check, for instance) without saying it is accepting. */
  acceptDisabled?: boolean;
  declining: boolean;
  onAccept: () => void;
  onDecline: () => void;
}

/**
 * What an invitation offers (spec 001, section 2): the timeline, who made it, the role and what it
 * allows, the personal message and when it expires. An expired one cannot be answered.
 */
export function InvitationDetails({ detail, accepting, acceptDisabled = false, declining, onAccept, onDecline }: InvitationDetailsProps) {
  const { invitation, timeline } = detail;
  const expired = isExpired(invitation.expiresAt);
  return (
    <section className="card invitation__card" aria-labelledby="invitation-title">
      <p className="invitation__eyebrow">
        {invitation.inviter_name} invited you to collaborate on
      </p>
      <h1 className="invitation__title" id="invitation-title">
        {timeline.title}
      </h1>
      {timeline.description ? <p className="invitation__description">{timeline.description}</p> : null}
      <dl className="invitation__facts">
        <dt>Created by</dt>
        <dd>{timeline.creatorName}</dd>
        <dt>Invited</dt>
        <dd>{invitation.email}</dd>
        <dt>Expiry</dt>
        <dd>{expiryText(invitation.expiresAt)}</dd>
      </dl>
      <div className="invitation__role">
        <p>
          Your role: <Badge tone="brand">{roleLabel(invitation.role)}</Badge>
        </p>
        <p>{roleDescription(invitation.role)}</p>
      </div>
      {invitation.message ? (
        <figure className="invitation__figure">
          <figcaption className="visually-hidden">Message from {invitation.inviter_name}</figcaption>
          <blockquote className="invitation__message">{invitation.message}</blockquote>
        </figure>
      ) : null}
      {expired ? (
        <p className="invitation__warning" role="alert">
          {EXPIRED_MESSAGE}
        </p>
      ) : (
        <div className="invitation__actions">
          <button type="button" className="button button--secondary" onClick={onDecline} disabled={accepting || declining}>
            {declining ? 'Declining...' : 'Decline'}
          </button>
          <button type="button" className="button button--primary" onClick={onAccept} disabled={accepting || declining || acceptDisabled}>
            {accepting ? 'Accepting...' : 'Accept Invitation'}
          </button>
        </div>
      )}
    </section>
  );
}
