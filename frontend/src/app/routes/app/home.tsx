import { lazy, Suspense } from 'react';
import { Spinner } from '../../../components/ui/spinner';

// The feed's code (cards, dialogs, menus, the feed video) loads only for someone signed in:
// RequireAuth sends a visitor to sign in before this renders, so a first visit downloads the
// sign-in screen alone and stays within the JavaScript budget.
const HomeFeed = lazy(() => import('./home-feed'));

export default function HomeRoute() {
  return (
    <Suspense
      fallback={
        <div className="page-state">
          <Spinner label="Loading feed..." />
        </div>
      }
    >
      <HomeFeed />
    </Suspense>
  );
}
