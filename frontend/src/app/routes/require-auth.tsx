import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { OfflineBanner } from '../../components/ui/offline-banner';
import { PageState } from '../../components/ui/page-state';
import { Splash } from '../../components/ui/splash';
import { ME_QUERY_KEY, useUser } from '../../lib/current-user';
import { useSessionSync } from '../../features/auth/hooks/use-session-sync';
import { clearAuthToken, getAuthToken } from '../../lib/auth-token';
import { useLoadedModule } from '../../lib/loaded-module';
import { takeReturnPath } from '../../lib/return-path';

// The signed-in shell and the sign-in screen are loaded on demand, keeping the first script small.
// Whichever one the stored token predicts starts downloading at once, beside the session check.
const loadAppLayout = () => import('../layout/app-layout');
const loadAuthScreen = () => import('../../features/auth/components/auth-screen');
type ScreenModule = Awaited<ReturnType<typeof loadAppLayout>> | Awaited<ReturnType<typeof loadAuthScreen>>;
if (typeof window !== 'undefined') void (getAuthToken() ? loadAppLayout() : loadAuthScreen()).catch(() => undefined);

/**
 * A visitor sent to the sign-in screen from somewhere else (accepting an invitation) goes back
 * there once signed in.
 */
function useReturnAfterSignIn(user: unknown) {
  const navigate = useNavigate();
  const sawSignIn = useRef(false);
  useEffect(() => {
    if (user === null) {
      sawSignIn.current = true;
      return;
    }
    if (!user || !sawSignIn.current) return;
    sawSignIn.current = false;
    const path = takeReturnPath();
    if (path) void navigate(path, { replace: true });
  }, [user, navigate]);
}

/**
 * Every route but the invitation page needs a signed-in user; everyone else gets the sign-in
 * screen in its place (spec 001, section 2), at the same address.
 */
export function RequireAuth() {
  return (
    <>
      <OfflineBanner />
      <SignedInScreen />
    </>
  );
}

function SignedInScreen() {
  useSessionSync();
  const queryClient = useQueryClient();
  const me = useUser();
  useReturnAfterSignIn(me.data);
  // Who is signed in, as the screen shows it: the session's answer renders the whole screen, so
  // that render is a transition (in slices the browser can interrupt) instead of one long task.
  const user = useDeferredValue(me.data);
  // The splash stays until the screen's code is there (see useLoadedModule).
  const screen = useLoadedModule<ScreenModule>(user || (user === undefined && getAuthToken()) ? loadAppLayout : loadAuthScreen);

  if (user === undefined) {
    if (me.data === undefined && (me.isError || me.fetchStatus === 'paused')) {
      return (
        <main className="app-main" id="main">
          <PageState
            title="Can't reach Timeliner"
            actions={
              <>
                <button type="button" className="button button--primary" onClick={() => void me.refetch()}>
                  Try again
                </button>
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => {
                    clearAuthToken();
                    queryClient.setQueryData(ME_QUERY_KEY, null);
                  }}
                >
                  Sign out
                </button>
              </>
            }
          >
            <p>Your session could not be checked. Check your connection; Timeliner tries again by itself once it is back.</p>
          </PageState>
        </main>
      );
    }
    return <Splash />;
  }
  if (user === null) return screen && 'AuthScreen' in screen ? <screen.AuthScreen /> : <Splash />;
  return screen && 'AppLayout' in screen ? <screen.AppLayout user={user} /> : <Splash />;
}
