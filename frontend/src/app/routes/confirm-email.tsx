import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Logo } from '../../components/ui/logo';
import { ME_QUERY_KEY } from '../../lib/current-user';
import { useConfirmEmail } from '../../features/auth/api/confirm-email';
import { errorMessage } from '../../lib/api-client';
import '../../features/auth/components/auth-screen.css';

/**
 * Where the link sent to a new e-mail address leads: one press confirms it (open without
 * signing in, as it may be opened on another device). A press, not the page's load, so a mail
 * scanner that opens links changes nothing.
 */
export default function ConfirmEmailRoute() {
  const token = useParams().token?.trim() ?? '';
  const queryClient = useQueryClient();
  const confirm = useConfirmEmail();
  return (
    <main className="auth-screen" id="main">
      <title>Confirm your new e-mail address · Timeliner</title>
      <div className="auth-screen__card">
        <div className="auth-screen__brand">
          <Logo />
        </div>
        <div className="auth-form">
          {confirm.isSuccess ? (
            <>
              <h1 className="auth-form__title">Email address changed</h1>
              <p className="auth-form__note" role="status">
                Your account now uses {confirm.data.email}. Sign in with it from now on.
              </p>
              <Link to="/" className="button button--primary button--block">
                Go to Timeliner
              </Link>
            </>
          ) : (
            <>
              <h1 className="auth-form__title">Confirm your new e-mail address</h1>
              <p className="auth-form__note">Your account will use this address for signing in and for our e-mails.</p>
              {confirm.isError ? (
                <p className="alert" role="alert">
                  {errorMessage(confirm.error, 'Your address could not be confirmed. Please try again.')}
                </p>
              ) : null}
              <button
                type="button"
                className="button button--primary button--block"
                disabled={confirm.isPending}
                onClick={() => confirm.mutate(token, { onSuccess: () => void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }) })}
              >
                {confirm.isPending ? 'Confirming...' : 'Confirm new address'}
              </button>
            </>
          )}
        </div>
      </div>
    </main>
  );
}
