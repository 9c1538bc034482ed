import { NotificationList } from '../../../features/notifications/components/notification-list';

/** The notifications on a phone: the whole screen (desktop opens them from the bell). */
export default function NotificationsRoute() {
  return (
    <div className="page notifications-page">
      <title>Notifications · Timeliner</title>
      <NotificationList headingLevel={1} />
    </div>
  );
}
