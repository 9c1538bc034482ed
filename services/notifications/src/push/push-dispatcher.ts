import type { WorkQueue } from '@timeliner/platform';
import { type NotificationEntry, NotificationJobs } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { pushPayload, topicOf, urgencyOf } from './push-payload.js';
import { PushSubscription } from './push-subscription.entity.js';

/** Seconds a push service keeps a message for a browser that is offline. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

/** Queues one Web Push delivery per subscription of the recipient; the worker sends them. */
export class PushDispatcher {
  constructor(private readonly queue: WorkQueue) {}

  /**
   * `changeId` names the change being pushed (the `NotificationChanged` event id): each job's id
   * is `push-<changeId>-<subscriptionId>`, so queueing the same change again (a redelivery before
   * its inbox entry committed) adds nothing while the first job is pending or recent.
   */
  async send(manager: EntityManager, changeId: string, recipientId: string, entry: NotificationEntry, unreadCount: number, groupKey: string): Promise<number> {
    const subscriptions = await manager.getRepository(PushSubscription).find({ where: { userId: recipientId }, select: { id: true } });
    const payload = pushPayload(entry, unreadCount, groupKey);
    for (const subscription of subscriptions) {
      await this.queue.enqueue(
        NotificationJobs.DeliverPush,
        { subscriptionId: subscription.id, recipientId, payload, topic: topicOf(groupKey), urgency: urgencyOf(entry.kind), ttlSeconds: PUSH_TTL_SECONDS },
        { id: `push-${changeId}-${subscription.id}` },
      );
    }
    return subscriptions.length;
  }
}
