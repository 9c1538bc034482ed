import type { ReactElement, SVGProps } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/avatar';
import { BellIcon, CloseIcon, CommentIcon, DownloadIcon, HeartIcon, PlayIcon, UserIcon } from '../../../components/ui/icons';
import { LoadMore } from '../../../components/ui/load-more';
import { Spinner } from '../../../components/ui/spinner';
import { formatRelativeTime } from '../../../lib/format';
import { type Notification, useNotifications } from '../api/get-notifications';
import { useMarkAllNotificationsRead } from '../api/mark-all-read';
import { useMarkNotificationRead } from '../api/mark-notification-read';
import './notification-list.css';

/** What an entry is about, drawn where nobody's picture can be (a video is ready, an export, someone not known yet). */
const TYPE_ICONS: Record<string, (props: SVGProps<SVGSVGElement>) => ReactElement> = {
  like: HeartIcon,
  comment: CommentIcon,
  reply: CommentIcon,
  mention: CommentIcon,
  follow: UserIcon,
  invitation: UserIcon,
  collaborator_added: UserIcon,
  ownership_transferred: UserIcon,
  video_processed: PlayIcon,
  video_failed: CloseIcon,
  export_ready: DownloadIcon,
};

/** The people of an entry, overlapped; an entry without anyone (a video is ready) shows what it is about. */
function Actors({ entry }: { entry: Notification }) {
  if (entry.actors.length === 0) {
    const TypeIcon = TYPE_ICONS[entry.type] ?? BellIcon;
    return (
      <span className={`notification__system notification__system--${entry.type}`} data-testid="notification-icon" aria-hidden="true">
        <TypeIcon width={18} height={18} />
      </span>
    );
  }
  return (
    <span className="notification__actors" aria-hidden="true">
      {entry.actors.slice(0, 3).map((actor) => (
        <Avatar key={actor.id} name={actor.displayName} src={actor.avatar} size="sm" />
      ))}
    </span>
  );
}

/** A link inside the app, or the API (a download) as a plain link. */
function isAppLink(link: string): boolean {
  return link.startsWith('/') && !link.startsWith('/api/');
}

export interface NotificationListProps {
  /** Called after an entry is followed (the popover closes). */
  onNavigate?: () => void;
  /** 1 where the list is the page (/notifications), 2 inside the bell's popover. */
  headingLevel?: 1 | 2;
}

/**
 * The caller's notifications: grouped entries with avatars, the sentence and when it last grew,
 * unread ones marked; following one marks it read and opens its target.
 */
export function NotificationList({ onNavigate, headingLevel = 2 }: NotificationListProps) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const notifications = useNotifications();
  const markRead = useMarkNotificationRead();
  const markAllRead = useMarkAllNotificationsRead();
  const entries = notifications.data?.pages.flatMap((page) => page.items) ?? [];
  const anyUnread = entries.some((entry) => !entry.read);

  const follow = (entry: Notification) => {
    if (!entry.read) markRead.mutate(entry.id);
    onNavigate?.();
  };

  return (
    <section className="notification-list" aria-labelledby="notification-list-title">
      <div className="notification-list__header">
        <Heading id="notification-list-title" className="notification-list__title">
          Notifications
        </Heading>
        <button type="button" className="button button--ghost button--sm" disabled={!anyUnread || markAllRead.isPending} onClick={() => markAllRead.mutate()}>
          Mark all read
        </button>
      </div>
      {notifications.isPending ? (
        <div className="notification-list__state">
          <Spinner label="Loading notifications" />
        </div>
      ) : notifications.isError ? (
        <p className="notification-list__state" role="alert">
          Notifications could not be loaded.{' '}
          <button type="button" className="button button--ghost button--sm" onClick={() => void notifications.refetch()}>
            Try again
          </button>
        </p>
      ) : entries.length === 0 ? (
        <p className="notification-list__state">No notifications yet. Likes, comments and follows will show up here.</p>
      ) : (
        <ul className="notification-list__items">
          {entries.map((entry) => {
            const body = (
              <>
                <Actors entry={entry} />
                <span className="notification__text">
                  <span className="notification__sentence">{entry.text}</span>
                  <time className="notification__time" dateTime={entry.updatedAt}>
                    {formatRelativeTime(entry.updatedAt)}
                  </time>
                </span>
                {entry.read ? null : <span className="notification__unread" aria-label="Unread" />}
              </>
            );
            const className = `notification${entry.read ? '' : ' notification--unread'}`;
            return (
              <li key={entry.id}>
                {isAppLink(entry.link) ? (
                  <Link to={entry.link} className={className} onClick={() => follow(entry)} data-testid="notification">
                    {body}
                  </Link>
                ) : (
                  <a href={entry.link} className={className} onClick={() => follow(entry)} data-testid="notification">
                    {body}
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <LoadMore
        hasNextPage={notifications.hasNextPage}
        isFetchingNextPage={notifications.isFetchingNextPage}
        isFetchNextPageError={notifications.isFetchNextPageError}
        fetchNextPage={notifications.fetchNextPage}
        loadingLabel="Loading more notifications..."
      />
    </section>
  );
}
