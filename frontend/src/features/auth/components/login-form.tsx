import type { FormEvent } from 'react';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { useLogin } from '../api/login';
import { useFormValues } from '../hooks/use-form-values';
import { validateLogin } from '../lib/validation';

export function LoginForm({ onSwitch }: { onSwitch: () => void }) {
  const loginMutation = useLogin();
  const { values, bind, check } = useFormValues({ login: '', password: '' }, validateLogin);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!check() || loginMutation.isPending) return;
    loginMutation.mutate(values);
  };

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="auth-title">
      <h1 className="auth-form__title" id="auth-title">
        Welcome Back
      </h1>
      <p className="auth-form__subtitle">Sign in to continue to your timelines.</p>
      {loginMutation.isError ? (
        <p className="alert" role="alert">
          {errorMessage(loginMutation.error, 'Login failed')}
        </p>
      ) : null}
      <Field
        label="Email or Username"
        type="text"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        {...bind('login')}
      />
      <Field label="Password" type="password" autoComplete="current-password" {...bind('password')} />
      <button type="submit" className="button button--primary button--block" disabled={loginMutation.isPending}>
        {loginMutation.isPending ? 'Signing in...' : 'Sign In'}
      </button>
      <p className="auth-form__switch">
        Don&apos;t have an account?{' '}
        <button type="button" className="link-button" onClick={onSwitch}>
          Sign up
        </button>
      </p>
    </form>
  );
}
