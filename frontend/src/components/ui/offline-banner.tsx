import { useOffline } from '../../lib/connection';
import './page-state.css';

export const OFFLINE_TEXT = "You're offline. Showing what was loaded before; Timeliner updates by itself when the connection is back.";

/**
 * Says the screen shows what was loaded before the connection went. The live region is always
 * there, so the change is announced; it is empty while online (a plain live region, not a
 * `status`: a page's own status messages stay the only ones).
 */
export function OfflineBanner() {
  const offline = useOffline();
  return (
    <div className={offline ? 'offline-banner' : 'visually-hidden'} aria-live="polite">
      {offline ? OFFLINE_TEXT : null}
    </div>
  );
}
