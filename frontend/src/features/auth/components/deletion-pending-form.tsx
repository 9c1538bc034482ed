import { useEffect, useRef } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useCancelDeletion } from '../api/cancel-deletion';
import type { DeletionPending } from '../api/login';

/**
 * Signing in to an account that is waiting to be deleted: the date everything goes, and the offer
 * to cancel the deletion, which signs in. Going back leaves the deletion as it is.
 */
export default function DeletionPendingForm({ pending, onBack }: { pending: DeletionPending['deletionPending']; onBack: () => void }) {
  const cancel = useCancelDeletion();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <section className="auth-form" aria-labelledby="auth-title">
      <h1 className="auth-form__title" id="auth-title" tabIndex={-1} ref={headingRef}>
        Your account is being deleted
      </h1>
      <p className="auth-form__subtitle">{pending.message}</p>
      {cancel.isError ? (
        <p className="alert" role="alert">
          {errorMessage(cancel.error, 'The deletion could not be cancelled. Please sign in again.')}
        </p>
      ) : null}
      <button type="button" className="button button--primary button--block" disabled={cancel.isPending} onClick={() => cancel.mutate(pending.token)}>
        {cancel.isPending ? 'Cancelling...' : 'Cancel deletion and sign in'}
      </button>
      <p className="auth-form__switch">
        <button type="button" className="link-button" onClick={onBack}>
          Back to sign in
        </button>
      </p>
    </section>
  );
}
