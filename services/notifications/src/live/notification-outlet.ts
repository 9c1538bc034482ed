import { broadcastRealtime, type EventBus, type Logger } from '@timeliner/platform';
import { type NotificationEntry, Realtime } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { NotificationOutlet } from '../notifications/notifier.js';
import type { PostCommit } from '../post-commit.js';
import type { PushDispatcher } from '../push/push-dispatcher.js';

/**
 * Once a change is committed: the recipient's open sockets (any gateway replica) get the entry
 * and the new unread count on `realtime.user.<id>`; their browsers get a Web Push through the
 * work queue. A failure of either is logged; the 30 s poll and the list stay right regardless.
 */
export class LiveNotificationOutlet implements NotificationOutlet {
  constructor(
    private readonly bus: EventBus,
    private readonly postCommit: PostCommit,
    private readonly push: PushDispatcher,
    private readonly logger: Logger,
  ) {}

  grew(manager: EntityManager, recipientId: string, entry: NotificationEntry, unreadCount: number, push: boolean, groupKey: string): void {
    this.postCommit.add(manager, () => broadcastRealtime(this.bus, Realtime.userSubject(recipientId), { type: 'notification', notification: entry, unreadCount }));
    if (push) this.postCommit.add(manager, () => this.queuePush(recipientId, entry, unreadCount, groupKey));
  }

  pushOnly(manager: EntityManager, recipientId: string, entry: NotificationEntry, unreadCount: number, groupKey: string): void {
    this.postCommit.add(manager, () => this.queuePush(recipientId, entry, unreadCount, groupKey));
  }

  countChanged(manager: EntityManager, recipientId: string, unreadCount: number): void {
    this.postCommit.add(manager, () => broadcastRealtime(this.bus, Realtime.userSubject(recipientId), { type: 'notification_count', unreadCount }));
  }

  private async queuePush(recipientId: string, entry: NotificationEntry, unreadCount: number, groupKey: string): Promise<void> {
    const queued = await this.push.send(recipientId, entry, unreadCount, groupKey);
    if (queued > 0) this.logger.debug({ recipientId, notificationId: entry.id, queued }, 'push queued');
  }
}
