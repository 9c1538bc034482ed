import { setMaxListeners } from 'node:events';
import { type Job, type Logger, OutboundAddressError, type OutboundClient, OutboundTimeoutError, UnprocessableMessageError } from '@timeliner/platform';
import type { DeliverPushJob } from '@timeliner/proto';
import webpush from 'web-push';
import { PushBusyError, type PushGate } from './push-gate.js';
import type { PushRecheck } from './push-recheck.js';
import type { PushSubscriptionRepository } from './push-subscription.repository.js';
import type { VapidKeys } from './vapid.js';

/**
 * Worker policy: a push service that is down or throttling gets five tries over about ten
 * minutes. 32 sends at once per replica: they wait on the network, not the CPU, and the gate's
 * per-person and per-host limits keep any one person or push service to a fraction of them.
 */
export const PUSH_JOB_POLICY = { maxDeliver: 5, backoffMs: [2_000, 15_000, 60_000, 300_000], concurrency: 32, ackExtendMs: 10_000 };

/** The whole exchange with a push service (connect, TLS, answer); they answer in well under a second. */
export const PUSH_SEND_TIMEOUT_MS = 5_000;

/**
 * Sends one queued push (RFC 8030) with a VAPID signature (RFC 8292), the payload encrypted for
 * the subscription (RFC 8291, aes128gcm), through the outbound client: the endpoint's host is
 * resolved and checked again as the connection is made, redirects are not followed, and the
 * exchange has a time limit. The gate bounds sends per person and per push service host.
 *
 * Before each try, `recheck` asks again whether the recipient is still to be told (the actor not
 * blocked, muted or suspended since, the entry not taken back); if not, nothing is sent.
 *
 * A subscription its push service no longer knows (404, 410) is deleted; other refusals (400,
 * 403, 413, a redirect) and endpoints the guard now refuses are not retried; a push service that
 * is down, throttling or silent (5xx, 429, no answer in time) is retried with back-off by the
 * work queue, as is a push put back because its person or host is busy.
 */
export class PushSender {
  constructor(
    private readonly subscriptions: PushSubscriptionRepository,
    private readonly vapid: VapidKeys,
    private readonly logger: Logger,
    private readonly client: OutboundClient,
    private readonly gate: PushGate,
    private readonly timeoutMs = PUSH_SEND_TIMEOUT_MS,
    /** Asked before each try: a push whose actor was since blocked, muted or suspended, or whose entry was taken back, is not sent. */
    private readonly recheck?: PushRecheck,
  ) {}

  async deliver(job: Job<DeliverPushJob>): Promise<'sent' | 'gone' | 'expired'> {
    const { subscriptionId, recipientId, payload, topic, urgency, ttlSeconds } = job.payload;
    // Put back at once, without a lookup, while the person's share is taken.
    if (this.gate.isFull(recipientId)) throw new PushBusyError('person');
    const subscription = await this.subscriptions.find(subscriptionId);
    // Unsubscribed (or handed to another account) since the push was queued.
    if (!subscription || subscription.userId !== recipientId) return 'gone';
    // No longer to be told (push-recheck.ts).
    if (this.recheck && !(await this.recheck(recipientId, payload))) return 'gone';
    let host: string;
    try {
      host = this.client.guard.checkUrl(subscription.endpoint).host;
    } catch (error) {
      throw this.refused(subscriptionId, error as OutboundAddressError);
    }
    // The worker's jobs share one shutdown signal; the gate and the request each listen to it.
    setMaxListeners(4 * PUSH_JOB_POLICY.concurrency, job.signal);
    const release = await this.gate.enter(recipientId, host, job.signal);
    try {
      const request = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, payload, {
        vapidDetails: this.vapid,
        TTL: ttlSeconds,
        urgency: urgency as webpush.Urgency,
        topic,
      });
      let status: number;
      let body: string;
      try {
        ({ status, body } = await this.client.request(request.endpoint, { method: request.method, headers: request.headers, body: request.body, timeoutMs: this.timeoutMs, signal: job.signal }));
      } catch (error) {
        if (error instanceof OutboundAddressError && error.reason !== 'unresolved') throw this.refused(subscriptionId, error);
        if (error instanceof OutboundTimeoutError) throw new Error(`Push service did not answer within ${this.timeoutMs} ms`);
        throw error;
      }
      if (status >= 200 && status < 300) return 'sent';
      if (status === 404 || status === 410) {
        await this.subscriptions.delete(subscription.id);
        this.logger.info({ subscriptionId, status }, 'push subscription expired; deleted');
        return 'expired';
      }
      if (status === 429 || status >= 500) throw new Error(`Push service answered ${status}`);
      throw new UnprocessableMessageError(`Push service refused the message (${status}): ${body}`.slice(0, 300));
    } finally {
      release();
    }
  }

  private refused(subscriptionId: string, error: OutboundAddressError): UnprocessableMessageError {
    this.logger.warn({ subscriptionId, reason: error.reason }, 'push endpoint refused by the outbound address guard');
    return new UnprocessableMessageError(`Push endpoint refused: ${error.message}`);
  }
}
