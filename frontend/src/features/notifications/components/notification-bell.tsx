import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { BellIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { MOBILE_BREAKPOINT } from '../../../lib/viewport';
import { useUnreadCount } from '../api/get-unread-count';
import { useLiveNotifications } from '../hooks/use-live-notifications';
import './notification-bell.css';

// The list's code is fetched the first time the popover opens (phones open the page instead).
const NotificationList = lazy(() => import('./notification-list').then((module) => ({ default: module.NotificationList })));

/** '99+' above 99, nothing at 0 (spec 000, section 9). */
export function formatBadge(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}

const isPhone = () => typeof window.matchMedia === 'function' && window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT - 0.02}px)`).matches;

export interface NotificationBellProps {
  /** The signed-in person: the bell listens to their own realtime topic. */
  userId: string;
}

/**
 * The header's bell: the unread count (live from /ws, polled every 30 s as the fallback); a click
 * opens the list in a popover on desktop and the full-screen /notifications on phones.
 */
export function NotificationBell({ userId }: NotificationBellProps) {
  const { data: count = 0 } = useUnreadCount();
  useLiveNotifications(userId);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Open on the page it was opened on: following an entry (a new page) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const close = () => setOpenOn(null);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const badge = formatBadge(count);
  const label = count === 0 ? 'Notifications, none unread' : `Notifications, ${count} unread`;

  // The installed app's icon shows the same count (Badging API, where the platform has it).
  useEffect(() => {
    if (!('setAppBadge' in navigator)) return;
    (count > 0 ? navigator.setAppBadge(count) : navigator.clearAppBadge()).catch(() => undefined);
  }, [count]);

  // The popover closes on a click elsewhere and on Escape.
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const toggle = () => {
    if (isPhone()) {
      void navigate('/notifications');
      return;
    }
    setOpenOn(open ? null : pathname);
  };

  return (
    <div className="notification-bell" ref={root}>
      <button ref={button} type="button" className="icon-button notification-bell__button" aria-label={label} title={label} aria-expanded={open} aria-haspopup="dialog" onClick={toggle}>
        <BellIcon />
        {badge ? (
          <span className="notification-bell__badge" aria-hidden="true" data-testid="unread-badge">
            {badge}
          </span>
        ) : null}
      </button>
      {open ? (
        // Focus moves into the list when it opens, so the keyboard follows.
        <div className="notification-bell__popover" role="dialog" aria-label="Notifications" tabIndex={-1} ref={(element) => element?.focus()}>
          <Suspense fallback={<Spinner />}>
            <NotificationList onNavigate={close} />
          </Suspense>
        </div>
      ) : null}
    </div>
  );
}
