import { Outlet, useLocation, useNavigate } from 'react-router';
import { BottomNav } from '../../components/layouts/bottom-nav';
import { Header } from '../../components/layouts/header';
import '../../components/layouts/layout.css';
import type { User } from '../../features/auth/api/get-me';
import { useLogout } from '../../features/auth/api/logout';
import { NotificationBell } from '../../features/notifications/components/notification-bell';

/** The signed-in shell: header, page and (on phones) the bottom navigation. */
export function AppLayout({ user }: { user: User }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const logout = useLogout();
  // The player is full screen: no header and no bottom navigation (spec 001, section 2).
  const watching = pathname.startsWith('/watch/');

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {watching ? null : (
        <Header
          user={user}
          notifications={<NotificationBell />}
          onLogout={() => {
            // Whoever signs in next starts at home, not on the last person's page.
            void navigate('/');
            logout.mutate();
          }}
        />
      )}
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
      {watching ? null : (
        // The timeline picker is not built yet; Create goes straight to creating a timeline.
        <BottomNav userId={user.id} onCreate={() => navigate('/studio?create=true')} />
      )}
    </div>
  );
}
