import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { currentToast, subscribeToasts } from './toast-store';

// The toast UI is fetched the first time there is something to show.
const ToastView = lazy(() => import('./toast-view'));

export function Toaster() {
  const message = useSyncExternalStore(subscribeToasts, currentToast, () => null);
  // Once needed, the view stays mounted so closing animations and its live region keep working.
  const [needed, setNeeded] = useState(false);
  if (message && !needed) setNeeded(true);
  if (!needed && !message) return null;
  return (
    <Suspense fallback={null}>
      <ToastView message={message} />
    </Suspense>
  );
}
