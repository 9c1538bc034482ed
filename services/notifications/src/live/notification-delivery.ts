import { broadcastRealtime, type EventBus, type Logger, on } from '@timeliner/platform';
import { type NotificationEntry, NotificationEvents, Realtime } from '@timeliner/proto';
import type { NotificationRepository } from '../notifications/notification.repository.js';
import type { PushDispatcher } from '../push/push-dispatcher.js';

/**
 * The delivery consumer group's handler of `NotificationChanged` (the service's own outbox
 * event): each of the recipient's browser subscriptions gets a Web Push job on the work queue,
 * retried with back-off by the push worker, and their open sockets (any gateway replica) get
 * `realtime.user.<id>`: the entry and the unread count for a new or grown entry (just the count
 * if the entry is gone by now), the count alone when it changed otherwise.
 *
 * The entry and the unread count are read now, at delivery, so the message shows the state
 * after everything committed before it. Both are sent inside the handler's transaction, before
 * its inbox entry commits: a failure (NATS down) rolls it back and the event is delivered again;
 * once applied, a redelivery is skipped by the inbox; and a redelivery between the sending and
 * the commit queues jobs with the same ids, which the work queue drops.
 *
 * A push is not sent for an entry that is gone (taken back) or already read by then: the
 * person has seen it, or there is nothing left to see.
 */
export function deliveryHandlers(bus: EventBus, notifications: NotificationRepository, push: PushDispatcher, logger: Logger) {
  const inOrder = new PerRecipient();
  return [
    on(NotificationEvents.NotificationChanged, (change, meta, manager) =>
      inOrder.run(change.recipientId, async () => {
        const { recipientId } = change;
        const subject = Realtime.userSubject(recipientId);
        const context = meta.requestId ? { requestId: meta.requestId } : {};
        const grown = change.notificationId ? await notifications.entryWithUnreadCount(manager, recipientId, change.notificationId) : null;
        const unreadCount = grown?.unreadCount ?? (await notifications.unreadCount(recipientId, manager));
        const shown = grown ? (change.push && !grown.entry.read ? grown.entry : undefined) : change.unlistedEntry ? (JSON.parse(change.unlistedEntry) as NotificationEntry) : undefined;
        // The push first: a failure after it was queued redelivers the event, and the same job ids are dropped.
        if (shown) {
          const queued = await push.send(manager, meta.id, recipientId, shown, unreadCount, change.groupKey, grown !== null);
          if (queued > 0) logger.debug({ recipientId, notificationId: shown.id, queued }, 'push queued');
        }
        if (grown) await broadcastRealtime(bus, subject, { type: 'notification', notification: grown.entry, unreadCount }, context);
        // A push-only change leaves the list and its count as they were.
        else if (!change.unlistedEntry) await broadcastRealtime(bus, subject, { type: 'notification_count', unreadCount }, context);
      }),
    ),
  ];
}

/**
 * One delivery per recipient at a time in this process, in the order they were handed over, so
 * the last message a person's sockets get carries the latest count even when the group handles
 * several events at once.
 */
class PerRecipient {
  private readonly tails = new Map<string, Promise<void>>();

  run(key: string, work: () => Promise<void>): Promise<void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(work);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return current;
  }
}
