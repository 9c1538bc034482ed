import { BellIcon } from '../../../components/ui/icons';
import { useUnreadCount } from '../api/get-unread-count';
import './notification-bell.css';

/** '99+' above 99, nothing at 0 (spec 000, section 9). */
export function formatBadge(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}

export function NotificationBell() {
  const { data: count = 0 } = useUnreadCount();
  const badge = formatBadge(count);
  const label = count === 0 ? 'No unread notifications' : `${count} unread notification${count === 1 ? '' : 's'}`;
  return (
    <span className="notification-bell" role="img" aria-label={label} title={label}>
      <BellIcon />
      {badge ? (
        <span className="notification-bell__badge" aria-hidden="true" data-testid="unread-badge">
          {badge}
        </span>
      ) : null}
    </span>
  );
}
