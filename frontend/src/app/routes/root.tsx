import { useEffect } from 'react';
import { Outlet, useLocation, useNavigation, useRouteError } from 'react-router';
import { ErrorScreen } from '../../components/errors/error-screen';
import { Splash } from '../../components/ui/splash';
import { InstallPrompt } from '../../features/install-prompt/components/install-prompt';

export function RootLayout() {
  const navigation = useNavigation();
  // Inside another site's page the app offers no install of its own.
  const embedded = useLocation().pathname.startsWith('/embed/');
  return (
    <>
      {navigation.state === 'idle' ? null : <div className="nav-progress" role="progressbar" aria-label="Loading page" />}
      <Outlet />
      {embedded ? null : <InstallPrompt />}
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
