import { useState } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { Badge } from '../../../components/ui/badge';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCancelInvitation } from '../api/cancel-invitation';
import { useCollaborators, type Collaborator } from '../api/get-collaborators';
import { useInvitations, type Invitation } from '../api/get-invitations';
import { useRemoveCollaborator } from '../api/remove-collaborator';
import { useResendInvitation } from '../api/resend-invitation';
import { useTransferOwnership, type TransferOwnershipResult } from '../api/transfer-ownership';
import { expiryText, isExpired } from '../lib/expiry';
import { roleLabel } from '../lib/roles';
import { InviteDialog } from './invite-dialog';
import './collaboration.css';

export const TRANSFER_CONFIRMATION = 'Are you sure you want to transfer ownership? This action cannot be undone.';

type PendingAction = { kind: 'transfer' | 'remove'; collaborator: Collaborator } | null;

export interface CollaboratorsPanelProps {
  timelineId: string;
  /** The signed-in user owns the timeline: only then are transfer and remove offered. */
  isOwner: boolean;
  /** The signed-in user may invite and manage invitations (the owner). */
  canInvite: boolean;
  inviteOpen: boolean;
  onInviteOpenChange: (open: boolean) => void;
  onOwnershipTransferred?: (result: TransferOwnershipResult) => void;
}

/**
 * Invitations still open: waiting for an answer, or expired unanswered (they can be resent).
 * Accepted, declined and cancelled ones are history.
 */
export function pendingInvitations(invitations: readonly Invitation[]): Invitation[] {
  return invitations.filter((invitation) => invitation.status === 'pending' || invitation.status === 'expired');
}

function CollaboratorRow({
  collaborator,
  isOwner,
  onTransfer,
  onRemove,
}: {
  collaborator: Collaborator;
  isOwner: boolean;
  onTransfer: () => void;
  onRemove: () => void;
}) {
  // The owner's own row never carries these controls (spec 001, section 5).
  const manageable = isOwner && collaborator.role !== 'owner';
  return (
    <li className="collab-row">
      <Avatar name={collaborator.userName} size="sm" />
      <div className="collab-row__who">
        <span className="collab-row__name">{collaborator.userName}</span>
        <Badge tone={collaborator.role === 'owner' ? 'brand' : 'neutral'}>{roleLabel(collaborator.role)}</Badge>
      </div>
      {manageable ? (
        <div className="collab-row__actions">
          <button type="button" className="button button--ghost button--sm" onClick={onTransfer} aria-label={`Transfer ownership to ${collaborator.userName}`}>
            Transfer
          </button>
          <button type="button" className="button button--ghost button--sm collab-row__remove" onClick={onRemove} aria-label={`Remove ${collaborator.userName}`}>
            Remove
          </button>
        </div>
      ) : null}
    </li>
  );
}

function InvitationRow({ invitation, canManage, timelineId }: { invitation: Invitation; canManage: boolean; timelineId: string }) {
  const resend = useResendInvitation({
    onSuccess: (result) =>
      toast(
        result.userExists
          ? { title: 'Collaborator Added', description: `${invitation.email} now has an account and was added to the team.` }
          : { title: 'Invitation Resent', description: `The invitation was sent to ${invitation.email} again.` },
      ),
    onError: (error) => toast({ title: 'Failed to Resend Invitation', description: errorMessage(error, 'Please try again'), variant: 'destructive' }),
  });
  const cancel = useCancelInvitation({
    onSuccess: () => toast({ title: 'Invitation Cancelled', description: `The invitation to ${invitation.email} was cancelled.` }),
    onError: (error) => toast({ title: 'Failed to Cancel Invitation', description: errorMessage(error, 'Please try again'), variant: 'destructive' }),
  });
  const expired = invitation.status === 'expired' || isExpired(invitation.expiresAt);
  const busy = resend.isPending || cancel.isPending;
  return (
    <li className="collab-row">
      <div className="collab-row__who">
        <span className="collab-row__name">{invitation.email}</span>
        <span className="collab-row__meta">
          <Badge>{roleLabel(invitation.role)}</Badge>
          <span className={expired ? 'collab-row__expired' : undefined}>{expired ? 'Expired' : expiryText(invitation.expiresAt)}</span>
        </span>
      </div>
      {canManage ? (
        <div className="collab-row__actions">
          <button
            type="button"
            className="button button--ghost button--sm"
            disabled={busy}
            onClick={() => resend.mutate({ timelineId, invitationId: invitation.id })}
            aria-label={`Resend invitation to ${invitation.email}`}
          >
            {resend.isPending ? 'Sending...' : 'Resend'}
          </button>
          <button
            type="button"
            className="button button--ghost button--sm collab-row__remove"
            disabled={busy}
            onClick={() => cancel.mutate({ timelineId, invitationId: invitation.id })}
            aria-label={`Cancel invitation to ${invitation.email}`}
          >
            Cancel
          </button>
        </div>
      ) : null}
    </li>
  );
}

/** The team of a timeline: collaborators with their roles, pending invitations and inviting. */
export function CollaboratorsPanel({
  timelineId,
  isOwner,
  canInvite,
  inviteOpen,
  onInviteOpenChange,
  onOwnershipTransferred,
}: CollaboratorsPanelProps) {
  const collaborators = useCollaborators(timelineId);
  const invitations = useInvitations(timelineId, { enabled: canInvite });
  const [pending, setPending] = useState<PendingAction>(null);

  const transfer = useTransferOwnership({
    onSuccess: (result) => {
      setPending(null);
      toast({ title: 'Ownership Transferred', description: `"${result.timeline.title}" now belongs to ${result.timeline.creatorName}.` });
      onOwnershipTransferred?.(result);
    },
    onError: (error) => {
      setPending(null);
      toast({ title: 'Failed to Transfer Ownership', description: errorMessage(error, 'Please try again'), variant: 'destructive' });
    },
  });
  const remove = useRemoveCollaborator({
    onSuccess: (_result, { userId }) => {
      const name = collaborators.data?.find((collaborator) => collaborator.userId === userId)?.userName ?? 'The collaborator';
      setPending(null);
      toast({ title: 'Collaborator Removed', description: `${name} is no longer on this timeline.` });
    },
    onError: (error) => {
      setPending(null);
      toast({ title: 'Failed to Remove Collaborator', description: errorMessage(error, 'Please try again'), variant: 'destructive' });
    },
  });

  const waiting = pendingInvitations(invitations.data ?? []);

  return (
    <div className="collab">
      <div className="collab__head">
        <h3 className="collab__title">
          Collaborators{collaborators.data ? ` (${collaborators.data.length})` : ''}
        </h3>
        {canInvite ? (
          <button type="button" className="button button--primary button--sm" onClick={() => onInviteOpenChange(true)}>
            Invite Collaborator
          </button>
        ) : null}
      </div>
      {collaborators.isPending ? (
        <Spinner label="Loading collaborators..." />
      ) : collaborators.isError ? (
        <p className="muted">
          Collaborators could not be loaded.{' '}
          <button type="button" className="link-button" onClick={() => void collaborators.refetch()}>
            Try again
          </button>
        </p>
      ) : (
        <ul className="collab__list" aria-label="Collaborators">
          {collaborators.data.map((collaborator) => (
            <CollaboratorRow
              key={collaborator.id}
              collaborator={collaborator}
              isOwner={isOwner}
              onTransfer={() => setPending({ kind: 'transfer', collaborator })}
              onRemove={() => setPending({ kind: 'remove', collaborator })}
            />
          ))}
        </ul>
      )}

      {canInvite ? (
        <>
          <h3 className="collab__title">Pending Invitations{invitations.data ? ` (${waiting.length})` : ''}</h3>
          {invitations.isPending ? (
            <Spinner label="Loading invitations..." />
          ) : invitations.isError ? (
            <p className="muted">
              Invitations could not be loaded.{' '}
              <button type="button" className="link-button" onClick={() => void invitations.refetch()}>
                Try again
              </button>
            </p>
          ) : waiting.length === 0 ? (
            <p className="muted">No pending invitations.</p>
          ) : (
            <ul className="collab__list" aria-label="Pending invitations">
              {waiting.map((invitation) => (
                <InvitationRow key={invitation.id} invitation={invitation} canManage={canInvite} timelineId={timelineId} />
              ))}
            </ul>
          )}
          <InviteDialog timelineId={timelineId} open={inviteOpen} onOpenChange={onInviteOpenChange} />
        </>
      ) : null}

      <ConfirmDialog
        open={pending?.kind === 'transfer'}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        title="Transfer Ownership"
        description={
          <>
            {TRANSFER_CONFIRMATION}{' '}
            {pending ? <span>{pending.collaborator.userName} will become the owner.</span> : null}
          </>
        }
        confirmLabel="Transfer Ownership"
        pendingLabel="Transferring..."
        pending={transfer.isPending}
        onConfirm={() => pending && transfer.mutate({ timelineId, newOwnerId: pending.collaborator.userId })}
      />
      <ConfirmDialog
        open={pending?.kind === 'remove'}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        title="Remove Collaborator"
        description={pending ? `Remove ${pending.collaborator.userName} from this timeline? They will lose access to it.` : ''}
        confirmLabel="Remove"
        pendingLabel="Removing..."
        pending={remove.isPending}
        onConfirm={() => pending && remove.mutate({ timelineId, userId: pending.collaborator.userId })}
      />
    </div>
  );
}
