import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Field } from '../../components/ui/field';
import { Logo } from '../../components/ui/logo';
import { ME_QUERY_KEY } from '../../lib/current-user';
import { useResetPassword } from '../../features/auth/api/reset-password';
import { useFormValues } from '../../features/auth/hooks/use-form-values';
import { authMessages, type FieldErrors } from '../../features/auth/lib/validation';
import { errorMessage } from '../../lib/api-client';
import { clearAuthToken } from '../../lib/auth-token';
import '../../features/auth/components/auth-screen.css';

interface Values extends Record<string, string> {
  password: string;
  confirm: string;
}

const validate = (values: Values): FieldErrors<Values> => {
  const errors: FieldErrors<Values> = {};
  if (values.password.length < 6) errors.password = authMessages.password;
  else if (values.password.length > 256) errors.password = 'Password must be at most 256 characters';
  if (values.confirm !== values.password) errors.confirm = 'The two passwords are not the same';
  return errors;
};

/** Where a reset e-mail's link leads: choose a new password (open without signing in). */
export default function ResetPasswordRoute() {
  const token = useParams().token?.trim() ?? '';
  const queryClient = useQueryClient();
  const reset = useResetPassword();
  const [done, setDone] = useState(false);
  const { values, bind, check, formRef } = useFormValues<Values>({ password: '', confirm: '' }, validate);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!check() || reset.isPending) return;
    reset.mutate(
      { token, password: values.password },
      {
        onSuccess: () => {
          // Every session has ended, this browser's too: sign in again with the new password.
          clearAuthToken();
          queryClient.setQueryData(ME_QUERY_KEY, null);
          setDone(true);
        },
      },
    );
  };

  return (
    <main className="auth-screen" id="main">
      <title>Choose a new password · Timeliner</title>
      <div className="auth-screen__card">
        <div className="auth-screen__brand">
          <Logo />
        </div>
        {done ? (
          <div className="auth-form">
            <h1 className="auth-form__title">Password changed</h1>
            <p className="auth-form__note" role="status">
              Your new password is set and every device that was signed in has been signed out. Sign in with your new password.
            </p>
            <Link to="/" className="button button--primary button--block">
              Sign in
            </Link>
          </div>
        ) : (
          <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="reset-title">
            <h1 className="auth-form__title" id="reset-title">
              Choose a new password
            </h1>
            <p className="auth-form__subtitle">At least 6 characters, and not one of the most common passwords. Every device signed in to your account will be signed out.</p>
            {reset.isError ? (
              <p className="alert" role="alert">
                {errorMessage(reset.error, 'Your password could not be changed. Please try again.')}
              </p>
            ) : null}
            <input type="hidden" name="username" autoComplete="username" />
            <Field label="New password" type="password" autoComplete="new-password" {...bind('password')} />
            <Field label="Repeat new password" type="password" autoComplete="new-password" {...bind('confirm')} />
            <button type="submit" className="button button--primary button--block" disabled={reset.isPending}>
              {reset.isPending ? 'Saving...' : 'Set new password'}
            </button>
            <p className="auth-form__switch">
              <Link to="/">Back to sign in</Link>
            </p>
          </form>
        )}
      </div>
    </main>
  );
}
