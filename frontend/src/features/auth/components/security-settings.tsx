import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatDate, formatRelativeTime, pluralize } from '../../../lib/format';
import type { User } from '../../../lib/current-user';
import { useChangeEmail } from '../api/change-email';
import { useChangePassword } from '../api/change-password';
import { SESSIONS_QUERY_KEY, type SessionInfo, useSessions } from '../api/get-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession } from '../api/revoke-session';
import { useFormValues } from '../hooks/use-form-values';
import { TwoStepSettings } from './two-step-settings';
import { authMessages, type FieldErrors, isValidEmail } from '../lib/validation';
import './security-settings.css';

interface PasswordValues extends Record<string, string> {
  currentPassword: string;
  newPassword: string;
  confirm: string;
}

const validatePassword = (values: PasswordValues): FieldErrors<PasswordValues> => {
  const errors: FieldErrors<PasswordValues> = {};
  if (!values.currentPassword) errors.currentPassword = 'Please enter your current password';
  if (values.newPassword.length < 6) errors.newPassword = authMessages.password;
  else if (values.newPassword.length > 256) errors.newPassword = 'Password must be at most 256 characters';
  if (values.confirm !== values.newPassword) errors.confirm = 'The two passwords are not the same';
  return errors;
};

function ChangePasswordForm() {
  const queryClient = useQueryClient();
  const change = useChangePassword();
  const [formKey, setFormKey] = useState(0);
  const { values, bind, check, formRef } = useFormValues<PasswordValues>({ currentPassword: '', newPassword: '', confirm: '' }, validatePassword);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!check() || change.isPending) return;
    change.mutate(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      {
        onSuccess: ({ signedOutSessions }) => {
          toast({
            title: 'Password changed',
            description: signedOutSessions > 0 ? `${pluralize(signedOutSessions, 'other session')} signed out.` : 'You stay signed in on this device.',
          });
          void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
          setFormKey((key) => key + 1);
        },
      },
    );
  };

  return (
    <form key={formKey} ref={formRef} className="card settings__form" onSubmit={onSubmit} noValidate aria-labelledby="security-password">
      <h2 id="security-password" className="settings__heading">
        Password
      </h2>
      <p className="security__note">Changing your password signs out every other device. You stay signed in here.</p>
      {change.isError ? (
        <p className="alert" role="alert">
          {errorMessage(change.error, 'Your password could not be changed. Please try again.')}
        </p>
      ) : null}
      <Field label="Current password" type="password" autoComplete="current-password" {...bind('currentPassword')} />
      <Field label="New password" type="password" autoComplete="new-password" hint="At least 6 characters, and not one of the most common passwords." {...bind('newPassword')} />
      <Field label="Repeat new password" type="password" autoComplete="new-password" {...bind('confirm')} />
      <div>
        <button type="submit" className="button button--primary" disabled={change.isPending}>
          {change.isPending ? 'Saving...' : 'Change password'}
        </button>
      </div>
    </form>
  );
}

interface EmailValues extends Record<string, string> {
  newEmail: string;
  currentPassword: string;
}

const validateEmail = (values: EmailValues): FieldErrors<EmailValues> => {
  const errors: FieldErrors<EmailValues> = {};
  if (!isValidEmail(values.newEmail.trim())) errors.newEmail = authMessages.email;
  if (!values.currentPassword) errors.currentPassword = 'Please enter your current password';
  return errors;
};

function ChangeEmailForm({ user }: { user: User }) {
  const change = useChangeEmail();
  const { values, bind, check, formRef } = useFormValues<EmailValues>({ newEmail: '', currentPassword: '' }, validateEmail);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!check() || change.isPending) return;
    change.mutate({ newEmail: values.newEmail.trim(), currentPassword: values.currentPassword });
  };

  return (
    <form ref={formRef} className="card settings__form" onSubmit={onSubmit} noValidate aria-labelledby="security-email">
      <h2 id="security-email" className="settings__heading">
        Email address
      </h2>
      <p className="security__note">
        You sign in with <strong>{user.email}</strong>. A new address is used once you confirm it from the link we send there; we also tell your current address.
      </p>
      {change.isSuccess ? (
        <p className="security__status" role="status">
          {change.data.message}
        </p>
      ) : null}
      {change.isError ? (
        <p className="alert" role="alert">
          {errorMessage(change.error, 'Your e-mail address could not be changed. Please try again.')}
        </p>
      ) : null}
      <Field label="New email address" type="email" autoComplete="email" autoCapitalize="none" spellCheck={false} {...bind('newEmail')} />
      <Field label="Current password" type="password" autoComplete="current-password" {...bind('currentPassword')} />
      <div>
        <button type="submit" className="button button--primary" disabled={change.isPending}>
          {change.isPending ? 'Sending...' : 'Send confirmation link'}
        </button>
      </div>
    </form>
  );
}

function SessionRow({ session }: { session: SessionInfo }) {
  const revoke = useRevokeSession();
  const label = `${session.browser} on ${session.system}`;
  return (
    <li className="security__session">
      <div className="security__session-text">
        <p className="security__session-name">
          {label}
          {session.current ? <span className="security__badge">This device</span> : null}
        </p>
        <p className="security__session-meta">
          {session.ipAddress ? `${session.ipAddress} · ` : ''}Signed in {formatDate(session.createdAt)} · Last active {session.current ? 'now' : formatRelativeTime(session.lastActiveAt).toLowerCase()}
        </p>
      </div>
      {session.current ? null : (
        <button
          type="button"
          className="button button--secondary"
          aria-label={`Sign out ${label}`}
          disabled={revoke.isPending}
          onClick={() =>
            revoke.mutate(session.id, {
              onSuccess: () => toast({ title: 'Session signed out', description: `${label} is no longer signed in.` }),
              onError: (error) => toast({ title: 'Could not sign out that session', description: errorMessage(error, 'Please try again'), variant: 'destructive' }),
            })
          }
        >
          Sign out
        </button>
      )}
    </li>
  );
}

function SessionsList() {
  const sessions = useSessions();
  const revokeOthers = useRevokeOtherSessions();
  const others = (sessions.data ?? []).filter((session) => !session.current).length;
  return (
    <section className="card settings__form" aria-labelledby="security-sessions">
      <h2 id="security-sessions" className="settings__heading">
        Where you are signed in
      </h2>
      <p className="security__note">If you see a device you do not know, sign it out and change your password.</p>
      {sessions.isError ? (
        <p className="alert" role="alert">
          {errorMessage(sessions.error, 'Your sessions could not be loaded.')}
        </p>
      ) : null}
      {sessions.isPending ? <p className="security__note">Loading...</p> : null}
      {sessions.data ? (
        <ul className="security__sessions" aria-label="Sessions">
          {sessions.data.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </ul>
      ) : null}
      {others > 0 ? (
        <div>
          <button
            type="button"
            className="button button--secondary"
            disabled={revokeOthers.isPending}
            onClick={() =>
              revokeOthers.mutate(undefined, {
                onSuccess: ({ signedOutSessions }) => toast({ title: 'Signed out everywhere else', description: `${pluralize(signedOutSessions, 'session')} signed out.` }),
                onError: (error) => toast({ title: 'Could not sign out other sessions', description: errorMessage(error, 'Please try again'), variant: 'destructive' }),
              })
            }
          >
            {revokeOthers.isPending ? 'Signing out...' : 'Sign out all other sessions'}
          </button>
        </div>
      ) : null}
    </section>
  );
}

/** Settings, Security: password, e-mail address, two-step sign-in and passkeys, and sessions. */
export function SecuritySettings({ user }: { user: User }) {
  return (
    <div className="security">
      <ChangePasswordForm />
      <ChangeEmailForm user={user} />
      <TwoStepSettings />
      <SessionsList />
    </div>
  );
}
