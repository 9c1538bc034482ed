import type { FormEvent } from 'react';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { useRegister } from '../api/register';
import { useFormValues } from '../hooks/use-form-values';
import { validateRegistration } from '../lib/validation';

export function RegisterForm({ onSwitch }: { onSwitch: () => void }) {
  const registerMutation = useRegister();
  const { values, bind, check, formRef } = useFormValues(
    { displayName: '', username: '', email: '', password: '' },
    validateRegistration,
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!check() || registerMutation.isPending) return;
    registerMutation.mutate(values);
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="auth-title">
      <h1 className="auth-form__title" id="auth-title">
        Create Account
      </h1>
      <p className="auth-form__subtitle">Join to build and share your video timelines.</p>
      {registerMutation.isError ? (
        <p className="alert" role="alert">
          {errorMessage(registerMutation.error, 'Registration failed')}
        </p>
      ) : null}
      <Field label="Full Name" type="text" autoComplete="name" {...bind('displayName')} />
      <Field
        label="Username"
        type="text"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        {...bind('username')}
      />
      <Field label="Email" type="email" autoComplete="email" inputMode="email" {...bind('email')} />
      <Field label="Password" type="password" autoComplete="new-password" {...bind('password')} />
      <button type="submit" className="button button--primary button--block" disabled={registerMutation.isPending}>
        {registerMutation.isPending ? 'Creating account...' : 'Create Account'}
      </button>
      <p className="auth-form__switch">
        Already have an account?{' '}
        <button type="button" className="link-button" onClick={onSwitch}>
          Sign in
        </button>
      </p>
    </form>
  );
}
