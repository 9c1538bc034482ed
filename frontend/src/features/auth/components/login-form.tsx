import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { type DeletionPending, isDeletionPending, needsSecondStep, useLogin } from '../api/login';
import { usePasskeySignIn } from '../api/passkey-sign-in';
import { useFormValues } from '../hooks/use-form-values';
import { validateLogin } from '../lib/validation';
import { passkeyErrorMessage, passkeysSupported } from '../lib/webauthn';
import { SecondStepForm } from './second-step-form';

/** Only an account waiting to be deleted needs it: loaded then. */
const DeletionPendingForm = lazy(() => import('./deletion-pending-form'));

export function LoginForm({ onSwitch, onForgot }: { onSwitch: () => void; onForgot?: () => void }) {
  const loginMutation = useLogin();
  const passkey = usePasskeySignIn();
  const [secondStep, setSecondStep] = useState<string>();
  const [deletion, setDeletion] = useState<DeletionPending['deletionPending']>();
  const { values, bind, check, formRef } = useFormValues({ login: '', password: '' }, validateLogin);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!check() || loginMutation.isPending) return;
    loginMutation.mutate(values, {
      onSuccess: (answer) => {
        if (needsSecondStep(answer)) setSecondStep(answer.secondStep.token);
        if (isDeletionPending(answer)) setDeletion(answer.deletionPending);
      },
    });
  };

  if (deletion) {
    return (
      <Suspense fallback={null}>
        <DeletionPendingForm
          pending={deletion}
          onBack={() => {
            setDeletion(undefined);
            setSecondStep(undefined);
            loginMutation.reset();
            passkey.reset();
          }}
        />
      </Suspense>
    );
  }
  if (secondStep) {
    return (
      <SecondStepForm
        token={secondStep}
        onDeletionPending={setDeletion}
        onBack={() => {
          setSecondStep(undefined);
          loginMutation.reset();
        }}
      />
    );
  }
  const passkeyError = passkey.isError ? (passkeyErrorMessage(passkey.error, 'Signing in with a passkey did not work. Please try again.') ?? errorMessage(passkey.error, 'Signing in with a passkey did not work.')) : undefined;

  return (
    <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="auth-title">
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
      {onForgot ? (
        <p className="auth-form__forgot">
          <button type="button" className="link-button" onClick={onForgot}>
            Forgot password?
          </button>
        </p>
      ) : null}
      <button type="submit" className="button button--primary button--block" disabled={loginMutation.isPending}>
        {loginMutation.isPending ? 'Signing in...' : 'Sign In'}
      </button>
      {passkeysSupported() ? (
        <>
          {passkeyError ? (
            <p className="alert" role="alert">
              {passkeyError}
            </p>
          ) : null}
          <button type="button" className="button button--secondary button--block" disabled={passkey.isPending} onClick={() => passkey.mutate(undefined, { onSuccess: (answer) => void (isDeletionPending(answer) && setDeletion(answer.deletionPending)) })}>
            {passkey.isPending ? 'Waiting for your passkey...' : 'Use a passkey'}
          </button>
        </>
      ) : null}
      <p className="auth-form__switch">
        Don&apos;t have an account?{' '}
        <button type="button" className="link-button" onClick={onSwitch}>
          Sign up
        </button>
      </p>
    </form>
  );
}
