import { useEffect } from 'react';
import { Outlet, useLocation, useNavigation, useRouteError } from 'react-router';
import { ErrorScreen } from '../../components/errors/error-screen';
import { Splash } from '../../components/ui/splash';
import { InstallPrompt } from '../../features/install-prompt/components/install-prompt';

export function RootLayout() {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  // Inside another site's page the app offers no install of its own; over the full-screen player
  // the card would sit on the video's controls.
  const noPrompt = pathname.startsWith('/embed/') || pathname.startsWith('/watch/');
  return (
    <>
      {navigation.state === 'idle' ? null : <div className="nav-progress" role="progressbar" aria-label="Loading page" />}
      <Outlet />
      {noPrompt ? null : <InstallPrompt />}
    </>
  );
}

export function RootErrorBoundary() {
  const error = useRouteError();
  useEffect(() => {
    console.error('Route failed', error);
  }, [error]);
  return <ErrorScreen />;
}

export function RootHydrateFallback() {
  return <Splash />;
}
