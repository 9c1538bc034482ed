import type { FormEvent } from 'react';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { useForgotPassword } from '../api/forgot-password';
import { useFormValues } from '../hooks/use-form-values';
import { authMessages, type FieldErrors, isValidEmail } from '../lib/validation';

const validate = (values: { email: string }): FieldErrors<{ email: string }> => (isValidEmail(values.email.trim()) ? {} : { email: authMessages.email });

/** "Forgot password?": an e-mailed link to choose a new password. The answer never says whether the address has an account. */
export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const forgot = useForgotPassword();
  const { values, bind, check, formRef } = useFormValues({ email: '' }, validate);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!check() || forgot.isPending) return;
    forgot.mutate({ email: values.email.trim() });
  };

  if (forgot.isSuccess) {
    return (
      <div className="auth-form" aria-labelledby="auth-title">
        <h1 className="auth-form__title" id="auth-title">
          Check your e-mail
        </h1>
        <p className="auth-form__note" role="status">
          {forgot.data.message}
        </p>
        <p className="auth-form__note">Nothing there? Look in your spam folder, or check the address and ask again.</p>
        <button type="button" className="button button--primary button--block" onClick={onBack}>
          Back to sign in
        </button>
      </div>
    );
  }

  return (
    <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="auth-title">
      <h1 className="auth-form__title" id="auth-title">
        Forgot your password?
      </h1>
      <p className="auth-form__subtitle">Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
      {forgot.isError ? (
        <p className="alert" role="alert">
          {errorMessage(forgot.error, 'Your request could not be sent. Please try again.')}
        </p>
      ) : null}
      <Field label="Email" type="email" autoComplete="email" autoCapitalize="none" spellCheck={false} {...bind('email')} />
      <button type="submit" className="button button--primary button--block" disabled={forgot.isPending}>
        {forgot.isPending ? 'Sending...' : 'Send reset link'}
      </button>
      <p className="auth-form__switch">
        Remembered it?{' '}
        <button type="button" className="link-button" onClick={onBack}>
          Back to sign in
        </button>
      </p>
    </form>
  );
}
