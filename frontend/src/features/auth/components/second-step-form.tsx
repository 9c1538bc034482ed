import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { type DeletionPending, isDeletionPending } from '../api/login';
import { useSecondStep } from '../api/second-step';

/** The second step of a password sign-in: a code from the authenticator app, or a recovery code. */
export function SecondStepForm({ token, onBack, onDeletionPending }: { token: string; onBack: () => void; onDeletionPending?: (pending: DeletionPending['deletionPending']) => void }) {
  const finish = useSecondStep();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [recovery, setRecovery] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    const valid = recovery ? typed.replace(/[\s-]/g, '').length === 10 : /^\d{6}$/.test(typed.replace(/\s/g, ''));
    setError(valid ? undefined : recovery ? 'Please enter one of your recovery codes' : 'Please enter the 6-digit code from your app');
    if (!valid || finish.isPending) return;
    finish.mutate({ token, code: typed }, { onSuccess: (answer) => void (isDeletionPending(answer) && onDeletionPending?.(answer.deletionPending)) });
  };

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="auth-title">
      <h1 className="auth-form__title" id="auth-title" tabIndex={-1} ref={headingRef}>
        Two-step sign-in
      </h1>
      <p className="auth-form__subtitle">
        {recovery ? 'Enter one of the recovery codes you saved. Each works once.' : 'Enter the 6-digit code your authenticator app shows for Timeliner.'}
      </p>
      {finish.isError ? (
        <p className="alert" role="alert">
          {errorMessage(finish.error, 'That code could not be checked. Please try again.')}
        </p>
      ) : null}
      <Field
        key={recovery ? 'recovery' : 'code'}
        label={recovery ? 'Recovery code' : 'Code'}
        type="text"
        inputMode={recovery ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        value={code}
        error={error}
        onChange={(event) => setCode(event.target.value)}
      />
      <button type="submit" className="button button--primary button--block" disabled={finish.isPending}>
        {finish.isPending ? 'Checking...' : 'Verify'}
      </button>
      <p className="auth-form__switch">
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setRecovery((on) => !on);
            setCode('');
            setError(undefined);
          }}
        >
          {recovery ? 'Use a code from your app' : 'Use a recovery code'}
        </button>
        {' · '}
        <button type="button" className="link-button" onClick={onBack}>
          Back to sign in
        </button>
      </p>
    </form>
  );
}
