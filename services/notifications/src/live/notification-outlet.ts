import type { EventWriter } from '@timeliner/platform';
import { type NotificationEntry, NotificationEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { NotificationOutlet } from '../notifications/notifier.js';

/**
 * Where a change of someone's notifications goes: a `NotificationChanged` event in this
 * service's outbox, written in the change's own transaction. The relay publishes it once
 * committed (the event writer nudges it right after the commit; on its next pass, or on the next
 * start, if the process stopped first) and the delivery group (`notification-delivery.ts`) tells
 * the sockets and queues the pushes. So the live message and the push exist exactly when the
 * change does.
 */
export class OutboxNotificationOutlet implements NotificationOutlet {
  constructor(private readonly events: EventWriter) {}

  async grew(manager: EntityManager, recipientId: string, notificationId: string, push: boolean, groupKey: string): Promise<void> {
    await this.write(manager, { recipientId, notificationId, push, groupKey });
  }

  async pushOnly(manager: EntityManager, recipientId: string, entry: NotificationEntry, groupKey: string): Promise<void> {
    await this.write(manager, { recipientId, push: true, groupKey, unlistedEntry: JSON.stringify(entry) });
  }

  async countChanged(manager: EntityManager, recipientId: string): Promise<void> {
    await this.write(manager, { recipientId });
  }

  private async write(manager: EntityManager, change: { recipientId: string; notificationId?: string; push?: boolean; groupKey?: string; unlistedEntry?: string }): Promise<void> {
    await this.events.add(manager, NotificationEvents.NotificationChanged, change, {});
  }
}
