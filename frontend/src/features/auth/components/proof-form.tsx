import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import type { Proof } from '../api/disable-totp';
import { passkeyProof } from '../api/passkey-proof';
import { passkeyErrorMessage } from '../lib/webauthn';

interface ProofFormProps {
  /** Says what is about to happen, e.g. "Turn off two-step sign-in". */
  label: string;
  submitLabel: string;
  /** Offers "Use a passkey instead" when the person has one. */
  hasPasskey: boolean;
  pending: boolean;
  error: unknown;
  onProof: (proof: Proof) => void;
  onCancel: () => void;
}

/** Asks for the password, or a passkey, before a factor is turned off or recovery codes replaced. */
export function ProofForm({ label, submitLabel, hasPasskey, pending, error, onProof, onCancel }: ProofFormProps) {
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<string>();
  const [passkeyProblem, setPasskeyProblem] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setMissing(password ? undefined : 'Please enter your password');
    if (!password || pending) return;
    onProof({ password });
  };
  const withPasskey = async () => {
    setPasskeyProblem(undefined);
    try {
      onProof(await passkeyProof());
    } catch (problem) {
      setPasskeyProblem(passkeyErrorMessage(problem, 'The passkey could not be used.') ?? errorMessage(problem, 'The passkey could not be used.'));
    }
  };

  return (
    <form className="security__proof" onSubmit={onSubmit} noValidate aria-label={label}>
      {error ? (
        <p className="alert" role="alert">
          {errorMessage(error, 'That did not work. Please try again.')}
        </p>
      ) : null}
      {passkeyProblem ? (
        <p className="alert" role="alert">
          {passkeyProblem}
        </p>
      ) : null}
      <Field label="Your password" type="password" autoComplete="current-password" value={password} error={missing} onChange={(event) => setPassword(event.target.value)} autoFocus />
      <div className="security__actions">
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? 'Checking...' : submitLabel}
        </button>
        {hasPasskey ? (
          <button type="button" className="button button--secondary" disabled={pending} onClick={() => void withPasskey()}>
            Use a passkey instead
          </button>
        ) : null}
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
