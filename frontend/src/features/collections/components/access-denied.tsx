import { Link, useLocation } from 'react-router';
import { Logo } from '../../../components/ui/logo';
import { PageState } from '../../../components/ui/page-state';
import { LockIcon } from '../../../components/ui/icons';
import { rememberReturnPath } from '../../../lib/return-path';

/**
 * What a signed-out visitor sees at /collections (spec 001, "Collections"): 'Access Denied' and
 * a link to log in, which comes back here once signed in.
 */
export function CollectionsAccessDenied() {
  const { pathname } = useLocation();
  return (
    <main className="app-main" id="main">
      <title>Access Denied · Timeliner</title>
      <div className="invite__brand">
        <Link to="/" aria-label="Timeliner home">
          <Logo />
        </Link>
      </div>
      <PageState
        title="Access Denied"
        icon={<LockIcon width={32} height={32} />}
        actions={
          <Link to="/" className="button button--primary" onClick={() => rememberReturnPath(pathname)}>
            Log in
          </Link>
        }
      >
        <p>Please log in to view your collections.</p>
      </PageState>
    </main>
  );
}
