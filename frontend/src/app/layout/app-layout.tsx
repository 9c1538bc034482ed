import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { BottomNav } from '../../components/layouts/bottom-nav';
import { Header } from '../../components/layouts/header';
import { PlusIcon } from '../../components/ui/icons';
import '../../components/layouts/layout.css';
import type { User } from '../../lib/current-user';
import { useLogout } from '../../features/auth/api/logout';
import { CommentReportingProvider } from './comment-reporting';

/** The account menu's staff entry, with the query it asks: loaded when the menu first opens. */
const StaffOnly = lazy(() => import('../../features/moderation/components/staff-only').then((module) => ({ default: module.StaffOnly })));
import { NotificationBell } from '../../features/notifications/components/notification-bell';

// The picker's code (and the dialog library under it) is fetched the first time it opens.
const TimelinePicker = lazy(() => import('../../features/timelines/components/timeline-picker'));

/**
 * True while the page is being scrolled down (past its first 80 px), false once it goes back up:
 * the floating + steps aside while someone reads down the feed, instead of sitting on the end of
 * each card's lines, and comes back as soon as they scroll up.
 */
function useScrollingDown(active: boolean): boolean {
  const [down, setDown] = useState(false);
  useEffect(() => {
    if (!active) return;
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      if (Math.abs(y - last) < 8) return;
      setDown(y > last && y > 80);
      last = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [active]);
  return active && down;
}

/** The signed-in shell: header, page and (on phones) the bottom navigation. */
export function AppLayout({ user }: { user: User }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const logout = useLogout();
  const [pickerOpen, setPickerOpen] = useState(false);
  // Each opening starts afresh (empty search); 0 means the picker's code is not needed yet.
  const [pickerSession, setPickerSession] = useState(0);
  // The player is full screen: no header and no bottom navigation (spec 001, section 2).
  const watching = pathname.startsWith('/watch/');
  const fabAway = useScrollingDown(pathname === '/');

  const openPicker = () => {
    setPickerSession((session) => session + 1);
    setPickerOpen(true);
  };

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {watching ? null : (
        <Header
          user={user}
          notifications={<NotificationBell userId={user.id} />}
          StaffOnly={StaffOnly}
          onCreate={openPicker}
          onLogout={() => {
            // Whoever signs in next starts at home, not on the last person's page.
            void navigate('/');
            logout.mutate();
          }}
        />
      )}
      <main id="main" className="app-main" tabIndex={-1}>
        <CommentReportingProvider viewerId={user.id}>
          <Outlet />
        </CommentReportingProvider>
      </main>
      {pathname === '/' ? (
        // The home feed's floating add button (phones only; CSS hides it from 768 px).
        <button type="button" className={`fab${fabAway ? ' fab--away' : ''}`} aria-label="Add videos to a timeline" onClick={openPicker}>
          <PlusIcon />
        </button>
      ) : null}
      {watching ? null : <BottomNav userId={user.id} onCreate={openPicker} />}
      {pickerSession > 0 ? (
        <Suspense fallback={null}>
          <TimelinePicker
            key={pickerSession}
            open={pickerOpen}
            onOpenChange={setPickerOpen}
            onCreateNew={() => {
              setPickerOpen(false);
              void navigate('/studio?create=true');
            }}
            onSelect={(timeline) => {
              setPickerOpen(false);
              // The studio opens with its upload section in view and highlighted.
              void navigate(`/timeline/${encodeURIComponent(timeline.id)}?tab=upload`);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
