import type { WorkQueue } from '@timeliner/platform';
import { type NotificationEntry, NotificationJobs } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { pushPayload, topicOf, urgencyOf } from './push-payload.js';
import type { PushSubscriptionRepository } from './push-subscription.repository.js';

/** Seconds a push service keeps a message for a browser that is offline. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

/** Queues one Web Push delivery per subscription of the recipient; the worker sends them. */
export class PushDispatcher {
  constructor(
    private readonly queue: WorkQueue,
    private readonly subscriptions: PushSubscriptionRepository,
    /** At most this many of the person's subscriptions, the newest (the cap at registration keeps them under it anyway). */
    private readonly perPerson = 10,
  ) {}

  /**
   * `changeId` names the change being pushed (the `NotificationChanged` event id): each job's id
   * is `push-<changeId>-<subscriptionId>`, so queueing the same change again (a redelivery before
   * its inbox entry committed) adds nothing while the first job is pending or recent.
   */
  async send(manager: EntityManager, changeId: string, recipientId: string, entry: NotificationEntry, unreadCount: number, groupKey: string, listed = false): Promise<number> {
    const subscriptionIds = await this.subscriptions.newestIds(manager, recipientId, this.perPerson);
    const payload = pushPayload(entry, unreadCount, groupKey, listed);
    for (const subscriptionId of subscriptionIds) {
      await this.queue.enqueue(
        NotificationJobs.DeliverPush,
        { subscriptionId, recipientId, payload, topic: topicOf(groupKey), urgency: urgencyOf(entry.kind), ttlSeconds: PUSH_TTL_SECONDS },
        { id: `push-${changeId}-${subscriptionId}` },
      );
    }
    return subscriptionIds.length;
  }
}
