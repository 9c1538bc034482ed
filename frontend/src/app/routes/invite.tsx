import { Link, useParams } from 'react-router';
import { Logo } from '../../components/ui/logo';
import { PageState } from '../../components/ui/page-state';

/**
 * The invitation page is open without signing in (spec 001, section 2). Loading an invitation
 * is not built yet; this page says so rather than guessing.
 */
export default function InviteRoute() {
  const { token } = useParams();
  const missing = !token?.trim();
  return (
    <main className="app-main" id="main">
      <title>Invitation · Timeliner</title>
      <div className="invite__brand">
        <Link to="/" aria-label="Timeliner home">
          <Logo />
        </Link>
      </div>
      {missing ? (
        <PageState title="Invalid Invitation Link">
          <p>This invitation link is incomplete. Please check the link you were sent.</p>
        </PageState>
      ) : (
        <PageState
          title="Timeline Invitation"
          actions={
            <Link to="/" className="button button--primary">
              Go to Timeliner
            </Link>
          }
        >
          <p>Invitation details can&apos;t be shown yet, so this invitation can&apos;t be accepted here for now.</p>
        </PageState>
      )}
    </main>
  );
}
