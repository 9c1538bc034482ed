import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatDate, formatRelativeTime, pluralize } from '../../../lib/format';
import { useAddPasskey } from '../api/add-passkey';
import { useConfirmTotp } from '../api/confirm-totp';
import { useDisableTotp } from '../api/disable-totp';
import { type PasskeyInfo, usePasskeys } from '../api/get-passkeys';
import { useTwoStep } from '../api/get-two-step';
import { useRegenerateRecoveryCodes } from '../api/regenerate-recovery-codes';
import { useRemovePasskey } from '../api/remove-passkey';
import { useRenamePasskey } from '../api/rename-passkey';
import { type TotpSetup, useSetupTotp } from '../api/setup-totp';
import { passkeyErrorMessage, passkeysSupported } from '../lib/webauthn';
import { ProofForm } from './proof-form';

/** Recovery codes, shown once: to be saved before leaving. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="security__codes-box" role="region" aria-labelledby="security-recovery-codes">
      <h3 id="security-recovery-codes" className="security__subheading">
        Your recovery codes
      </h3>
      <p className="security__note">
        If you lose your phone, each of these codes lets you sign in once instead of a code from the app. Save them somewhere safe now: they are not shown again.
      </p>
      <ul className="security__codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="security__actions">
        <button type="button" className="button button--secondary" onClick={() => void navigator.clipboard?.writeText(codes.join('\n')).then(() => toast({ title: 'Recovery codes copied' }))}>
          Copy codes
        </button>
        <button type="button" className="button button--primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}

/** The secret shown once as a QR code and as text, and the first code that turns two-step sign-in on. */
function TotpSetupForm({ setup, onDone, onCancel }: { setup: TotpSetup; onDone: (codes: string[]) => void; onCancel: () => void }) {
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const valid = /^\d{6}$/.test(code.replace(/\s/g, ''));
    setError(valid ? undefined : 'Please enter the 6-digit code from your app');
    if (!valid || confirm.isPending) return;
    confirm.mutate(code.replace(/\s/g, ''), { onSuccess: ({ recoveryCodes }) => onDone(recoveryCodes) });
  };
  return (
    <form className="security__setup" onSubmit={onSubmit} noValidate aria-label="Set up an authenticator app">
      <ol className="security__steps">
        <li>Open an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or 1Password) and scan this QR code.</li>
        <li>
          <img className="security__qr" src={setup.qrCode} width={180} height={180} alt="QR code to add Timeliner to your authenticator app" />
        </li>
        <li>
          Cannot scan it? Type this key into the app instead:{' '}
          <code className="security__secret" aria-label="Setup key">
            {setup.secret}
          </code>
        </li>
        <li>Enter the 6-digit code the app shows to finish.</li>
      </ol>
      {confirm.isError ? (
        <p className="alert" role="alert">
          {errorMessage(confirm.error, 'Two-step sign-in could not be turned on. Please try again.')}
        </p>
      ) : null}
      <Field label="Code from the app" type="text" inputMode="numeric" autoComplete="one-time-code" value={code} error={error} onChange={(event) => setCode(event.target.value)} />
      <div className="security__actions">
        <button type="submit" className="button button--primary" disabled={confirm.isPending}>
          {confirm.isPending ? 'Checking...' : 'Turn on'}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function TwoStepSection({ hasPasskey }: { hasPasskey: boolean }) {
  const status = useTwoStep();
  const setup = useSetupTotp();
  const disable = useDisableTotp();
  const regenerate = useRegenerateRecoveryCodes();
  const [codes, setCodes] = useState<string[]>();
  const [asking, setAsking] = useState<'disable' | 'regenerate'>();

  const start = () => setup.mutate(undefined, { onError: (error) => toast({ title: 'Could not start the set-up', description: errorMessage(error, 'Please try again'), variant: 'destructive' }) });
  const on = status.data?.enabled === true;

  return (
    <section className="card settings__form" aria-labelledby="security-two-step">
      <h2 id="security-two-step" className="settings__heading">
        Two-step sign-in
      </h2>
      <p className="security__note">When you sign in with your password, we also ask for a code from an authenticator app on your phone, so a stolen password alone is not enough.</p>
      {status.isError ? (
        <p className="alert" role="alert">
          {errorMessage(status.error, 'Two-step sign-in could not be loaded.')}
        </p>
      ) : null}
      {codes ? (
        <RecoveryCodes
          codes={codes}
          onDone={() => {
            setCodes(undefined);
            setup.reset();
          }}
        />
      ) : on ? (
        <>
          <p className="security__status" role="status">
            Two-step sign-in is on{status.data?.enabledAt ? ` since ${formatDate(status.data.enabledAt)}` : ''}. {pluralize(status.data?.recoveryCodesLeft ?? 0, 'recovery code')} left.
          </p>
          {asking ? (
            <ProofForm
              label={asking === 'disable' ? 'Turn off two-step sign-in' : 'Get new recovery codes'}
              submitLabel={asking === 'disable' ? 'Turn off' : 'Get new codes'}
              hasPasskey={hasPasskey}
              pending={disable.isPending || regenerate.isPending}
              error={asking === 'disable' ? disable.error : regenerate.error}
              onCancel={() => setAsking(undefined)}
              onProof={(proof) =>
                asking === 'disable'
                  ? disable.mutate(proof, {
                      onSuccess: () => {
                        setAsking(undefined);
                        toast({ title: 'Two-step sign-in is off', description: 'Your password alone signs you in now.' });
                      },
                    })
                  : regenerate.mutate(proof, {
                      onSuccess: ({ recoveryCodes }) => {
                        setAsking(undefined);
                        setCodes(recoveryCodes);
                      },
                    })
              }
            />
          ) : (
            <div className="security__actions">
              <button type="button" className="button button--secondary" onClick={() => setAsking('regenerate')}>
                New recovery codes
              </button>
              <button type="button" className="button button--secondary" onClick={() => setAsking('disable')}>
                Turn off two-step sign-in
              </button>
            </div>
          )}
        </>
      ) : setup.data ? (
        <TotpSetupForm setup={setup.data} onDone={setCodes} onCancel={() => setup.reset()} />
      ) : status.data ? (
        <div>
          <button type="button" className="button button--primary" disabled={setup.isPending} onClick={start}>
            {setup.isPending ? 'Starting...' : 'Set up two-step sign-in'}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function PasskeyRow({ passkey, hasPasskey }: { passkey: PasskeyInfo; hasPasskey: boolean }) {
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [mode, setMode] = useState<'rename' | 'remove'>();
  const [name, setName] = useState(passkey.name);
  const [nameError, setNameError] = useState<string>();
  const onRename = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    setNameError(trimmed && trimmed.length <= 60 ? undefined : 'Please give the passkey a name of at most 60 characters');
    if (!trimmed || trimmed.length > 60) return;
    rename.mutate({ id: passkey.id, name: trimmed }, { onSuccess: () => setMode(undefined) });
  };
  return (
    <li className="security__session">
      <div className="security__session-text">
        <p className="security__session-name">{passkey.name}</p>
        <p className="security__session-meta">
          Added {formatDate(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${formatRelativeTime(passkey.lastUsedAt).toLowerCase()}` : 'Not used yet'}
        </p>
      </div>
      {mode === undefined ? (
        <div className="security__actions">
          <button type="button" className="button button--secondary" aria-label={`Rename ${passkey.name}`} onClick={() => setMode('rename')}>
            Rename
          </button>
          <button type="button" className="button button--secondary" aria-label={`Remove ${passkey.name}`} onClick={() => setMode('remove')}>
            Remove
          </button>
        </div>
      ) : mode === 'rename' ? (
        <form className="security__proof" onSubmit={onRename} noValidate aria-label={`Rename ${passkey.name}`}>
          {rename.isError ? (
            <p className="alert" role="alert">
              {errorMessage(rename.error, 'The passkey could not be renamed.')}
            </p>
          ) : null}
          <Field label="Passkey name" value={name} error={nameError} maxLength={60} onChange={(event) => setName(event.target.value)} autoFocus />
          <div className="security__actions">
            <button type="submit" className="button button--primary" disabled={rename.isPending}>
              Save
            </button>
            <button type="button" className="button button--ghost" onClick={() => setMode(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <ProofForm
          label={`Remove ${passkey.name}`}
          submitLabel="Remove passkey"
          hasPasskey={hasPasskey}
          pending={remove.isPending}
          error={remove.error}
          onCancel={() => setMode(undefined)}
          onProof={(proof) => remove.mutate({ id: passkey.id, proof }, { onSuccess: () => toast({ title: 'Passkey removed', description: `${passkey.name} no longer signs you in.` }) })}
        />
      )}
    </li>
  );
}

function PasskeysSection({ passkeys }: { passkeys: ReturnType<typeof usePasskeys> }) {
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string>();
  const supported = passkeysSupported();
  const list = passkeys.data ?? [];

  const onAdd = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim() || 'Passkey';
    setProblem(undefined);
    add.mutate(trimmed, {
      onSuccess: (saved) => {
        setName('');
        toast({ title: 'Passkey added', description: `You can sign in with ${saved.name} now.` });
      },
      onError: (error) => setProblem(passkeyErrorMessage(error, 'The passkey could not be added.') ?? errorMessage(error, 'The passkey could not be added.')),
    });
  };

  return (
    <section className="card settings__form" aria-labelledby="security-passkeys">
      <h2 id="security-passkeys" className="settings__heading">
        Passkeys
      </h2>
      <p className="security__note">Sign in with your fingerprint, face or screen lock instead of your password. A passkey stays on your device or in your password manager; we only keep its public part.</p>
      {passkeys.isError ? (
        <p className="alert" role="alert">
          {errorMessage(passkeys.error, 'Your passkeys could not be loaded.')}
        </p>
      ) : null}
      {list.length > 0 ? (
        <ul className="security__sessions" aria-label="Your passkeys">
          {list.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} hasPasskey />
          ))}
        </ul>
      ) : passkeys.data ? (
        <p className="security__note">You have no passkey yet.</p>
      ) : null}
      {supported ? (
        <form className="security__add" onSubmit={onAdd} noValidate aria-label="Add a passkey">
          {problem ? (
            <p className="alert" role="alert">
              {problem}
            </p>
          ) : null}
          <Field label="Name of the new passkey" placeholder="For example: My phone" maxLength={60} value={name} onChange={(event) => setName(event.target.value)} />
          <div>
            <button type="submit" className="button button--primary" disabled={add.isPending}>
              {add.isPending ? 'Waiting for your device...' : 'Add a passkey'}
            </button>
          </div>
        </form>
      ) : (
        <p className="security__note">This browser cannot use passkeys.</p>
      )}
    </section>
  );
}

/** Settings, Security: two-step sign-in with an authenticator app and recovery codes, and passkeys. */
export function TwoStepSettings() {
  const passkeys = usePasskeys();
  return (
    <>
      <TwoStepSection hasPasskey={(passkeys.data?.length ?? 0) > 0} />
      <PasskeysSection passkeys={passkeys} />
    </>
  );
}
