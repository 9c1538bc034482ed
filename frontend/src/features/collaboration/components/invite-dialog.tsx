import { useState, type FormEvent } from 'react';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { SelectField, TextAreaField } from '../../../components/ui/form-fields';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useInviteCollaborator, type InviteRole } from '../api/invite-collaborator';
import { checkInviteEmail } from '../lib/invite-validation';
import { INVITE_ROLE_OPTIONS, roleLabel } from '../lib/roles';
import './collaboration.css';

const EMPTY = { email: '', role: 'editor' as InviteRole, message: '' };

export interface InviteDialogProps {
  timelineId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Invite someone by e-mail as editor (the default) or viewer, with an optional message. */
export function InviteDialog({ timelineId, open, onOpenChange }: InviteDialogProps) {
  const [values, setValues] = useState(EMPTY);

  const invite = useInviteCollaborator({
    onSuccess: (result, { invite: sent }) => {
      const role = roleLabel(sent.role ?? 'editor').toLowerCase();
      toast(
        result.userExists
          ? { title: 'Collaborator Added', description: `${sent.email} already has an account and was added as ${role === 'editor' ? 'an' : 'a'} ${role}.` }
          : { title: 'Invitation Sent', description: `An invitation to join as ${role === 'editor' ? 'an' : 'a'} ${role} was sent to ${sent.email}.` },
      );
      setValues(EMPTY);
      onOpenChange(false);
    },
    onError: (error) => {
      toast({ title: 'Failed to Send Invitation', description: errorMessage(error, 'Please try again'), variant: 'destructive' });
    },
  });

  const close = (next: boolean) => {
    if (next) return onOpenChange(true);
    if (invite.isPending) return;
    setValues(EMPTY);
    onOpenChange(false);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (invite.isPending) return;
    const problem = checkInviteEmail(values.email);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    const message = values.message.trim();
    invite.mutate({ timelineId, invite: { email: values.email.trim(), role: values.role, ...(message ? { message } : {}) } });
  };

  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={close}
      title="Invite Collaborator"
      description="Invite someone by email to work on this timeline with you."
    >
      <form className="collab-form" onSubmit={onSubmit} noValidate aria-label="Invite Collaborator">
        <Field
          label="Email"
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="name@example.com"
          value={values.email}
          onChange={(event) => setValues((current) => ({ ...current, email: event.target.value }))}
        />
        <SelectField
          label="Role"
          value={values.role}
          options={INVITE_ROLE_OPTIONS}
          onValueChange={(role) => setValues((current) => ({ ...current, role }))}
        />
        <TextAreaField
          label="Message (optional)"
          rows={3}
          maxLength={1000}
          placeholder="Add a personal note"
          value={values.message}
          onChange={(event) => setValues((current) => ({ ...current, message: event.target.value }))}
        />
        <div className="dialog__footer">
          <button type="button" className="button button--secondary" onClick={() => close(false)} disabled={invite.isPending}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={invite.isPending}>
            {invite.isPending ? 'Sending...' : 'Send Invitation'}
          </button>
        </div>
      </form>
    </ResponsiveDialog>
  );
}
