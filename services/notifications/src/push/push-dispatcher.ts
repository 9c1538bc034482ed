import { randomUUID } from 'node:crypto';
import type { WorkQueue } from '@timeliner/platform';
import { type NotificationEntry, NotificationJobs } from '@timeliner/proto';
import type { DataSource } from 'typeorm';
import { pushPayload, topicOf, urgencyOf } from './push-payload.js';
import { PushSubscription } from './push-subscription.entity.js';

/** Seconds a push service keeps a message for a browser that is offline. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

/** Queues one Web Push delivery per subscription of the recipient; the worker sends them. */
export class PushDispatcher {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: WorkQueue,
  ) {}

  async send(recipientId: string, entry: NotificationEntry, unreadCount: number, groupKey: string): Promise<number> {
    const subscriptions = await this.dataSource.getRepository(PushSubscription).find({ where: { userId: recipientId }, select: { id: true } });
    const payload = pushPayload(entry, unreadCount, groupKey);
    for (const subscription of subscriptions) {
      await this.queue.enqueue(
        NotificationJobs.DeliverPush,
        { subscriptionId: subscription.id, recipientId, payload, topic: topicOf(groupKey), urgency: urgencyOf(entry.kind), ttlSeconds: PUSH_TTL_SECONDS },
        { id: `push-${randomUUID()}` },
      );
    }
    return subscriptions.length;
  }
}
