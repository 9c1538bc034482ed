import type { Agent } from 'node:https';
import { type Job, type Logger, UnprocessableMessageError } from '@timeliner/platform';
import type { DeliverPushJob } from '@timeliner/proto';
import type { DataSource } from 'typeorm';
import webpush, { WebPushError } from 'web-push';
import { PushSubscription } from './push-subscription.entity.js';
import type { VapidKeys } from './vapid.js';

/** Worker policy: a push service that is down or throttling gets five tries over about ten minutes. */
export const PUSH_JOB_POLICY = { maxDeliver: 5, backoffMs: [2_000, 15_000, 60_000, 300_000], concurrency: 4, ackExtendMs: 10_000 };

/**
 * Sends one queued push (RFC 8030) with a VAPID signature (RFC 8292), the payload encrypted for
 * the subscription (RFC 8291, aes128gcm). A subscription its push service no longer knows (404,
 * 410) is deleted; other refusals (400, 403, 413) are not retried; a push service that is down or
 * throttling (5xx, 429, no answer) is retried with back-off by the work queue.
 */
export class PushSender {
  constructor(
    private readonly dataSource: DataSource,
    private readonly vapid: VapidKeys,
    private readonly logger: Logger,
    /** Tests: an agent that trusts the local push service's certificate. */
    private readonly agent?: Agent,
    private readonly timeoutMs = 10_000,
  ) {}

  async deliver(job: Job<DeliverPushJob>): Promise<'sent' | 'gone' | 'expired'> {
    const { subscriptionId, recipientId, payload, topic, urgency, ttlSeconds } = job.payload;
    const repo = this.dataSource.getRepository(PushSubscription);
    const subscription = await repo.findOneBy({ id: subscriptionId });
    // Unsubscribed (or handed to another account) since the push was queued.
    if (!subscription || subscription.userId !== recipientId) return 'gone';
    try {
      await webpush.sendNotification({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, payload, {
        vapidDetails: this.vapid,
        TTL: ttlSeconds,
        urgency: urgency as webpush.Urgency,
        topic,
        timeout: this.timeoutMs,
        ...(this.agent ? { agent: this.agent } : {}),
      });
      return 'sent';
    } catch (error) {
      if (!(error instanceof WebPushError)) throw error;
      if (error.statusCode === 404 || error.statusCode === 410) {
        await repo.delete({ id: subscription.id });
        this.logger.info({ subscriptionId, status: error.statusCode }, 'push subscription expired; deleted');
        return 'expired';
      }
      if (error.statusCode === 429 || error.statusCode >= 500) throw new Error(`Push service answered ${error.statusCode}`);
      throw new UnprocessableMessageError(`Push service refused the message (${error.statusCode}): ${error.body}`.slice(0, 300));
    }
  }
}
