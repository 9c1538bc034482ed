import {
  AckPolicy,
  type Consumer,
  type ConsumerConfig,
  type ConsumerMessages,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { headers as natsHeaders, nanos } from '@nats-io/transport-node';
import type { BusLogger } from './bus-logger.js';
import { DeadLetterHeader, deadLetterStats, errorText } from './dead-letters.js';
import type { BusMessage } from './event-bus.port.js';
import { type ConsumerLag, eventStats, type LagSource } from './event-metrics.js';
import { failureKind, OutageGate } from './failure-kind.js';
import { MetaHeader, metaFromHeaders } from './jetstream-headers.js';
import type { BusWire } from './jetstream-streams.js';
import { missingReferenceDelay, type RedeliveryPolicy, redeliveryDelay } from './redelivery.js';

/** A counting semaphore: at most `max` handlers at once. */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`concurrency must be ≥ 1, got ${max}`);
  }

  async acquire(): Promise<void> {
    if (this.active < this.max) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to a waiter, if any. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

export interface PullLoopOptions {
  /** The caller's consumer group (`durable`), for logs. */
  group: string;
  /** JetStream consumer name (durable). */
  name: string;
  /** Wire filter subject. */
  filter: string;
  policy: RedeliveryPolicy;
  /** Shared by the loops of one consume() call, so its concurrency holds across its subjects. */
  limit: ConcurrencyLimit;
  /** Server-side redelivery when a process dies holding a message; kept alive by `working()`. */
  ackWaitMs: number;
  /** Shared by the loops of one consume() call: one pause and one log line per outage. */
  outage: OutageGate;
}

type Handler = (message: BusMessage) => Promise<void>;

/**
 * One durable pull consumer and the loop that feeds its messages to a handler.
 *
 * Retries are client-driven, and what happens depends on why the handler failed (failureKind):
 * - a dependency was down (database, NATS, a peer service): the event is retried for as long as
 *   it takes, and the whole consumer pauses with a capped back-off (0.5 s doubling to 30 s)
 *   instead of failing every buffered event; the outage is logged when it starts and when it
 *   ends, with how many deliveries waited, never once per event;
 * - the handler failed on the event itself: naks with the back-off of that attempt, and after
 *   `maxDeliver` such failures the event becomes a dead letter (kept in the dead-letter stream
 *   with its error, counted, logged once, replayable) and is terminated;
 * - the handler met a reference it does not know yet (MissingReferenceError): naks with a
 *   growing delay (the policy's `missingReference`), and after its last try the event becomes a
 *   dead letter like above; never skipped;
 * - the event can never be handled: a dead letter at once.
 * The server-side `max_deliver` is unlimited, so an outage of any length loses nothing; the
 * consumer's `backoff` list is left unset on purpose: JetStream uses its first entry as the ack
 * wait, which would redeliver a slow handler that is still running.
 */
export class JetStreamPullLoop implements LagSource {
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;
  private stopping = false;
  private readonly running = new Set<Promise<void>>();
  /** Failures on their content, per event id, in this process (bounded by maxDeliver). */
  private readonly contentFailures = new Map<string, number>();
  /** Tries that met a missing reference, per event id, in this process (bounded by the policy). */
  private readonly missingReferences = new Map<string, number>();
  private get outage(): OutageGate {
    return this.options.outage;
  }

  constructor(
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly wire: BusWire,
    private readonly options: PullLoopOptions,
    private readonly handler: Handler,
    private readonly logger: BusLogger,
  ) {}

  async start(): Promise<void> {
    const consumer = await this.ensureConsumer();
    await this.countDeadLetters();
    // A small buffer: messages pulled but not started wait out the ack wait if this process dies,
    // and spread better over the replicas of the group.
    this.messages = await consumer.consume({ max_messages: Math.max(10, this.options.limit.max * 2) });
    this.loop = this.run(this.messages);
    eventStats.addLagSource(this);
  }

  /**
   * Pending: stored and not yet handled (never delivered, or delivered and not acknowledged:
   * in flight or put back with a delay). The oldest is the first message of the subject after the
   * consumer's ack floor.
   */
  async lag(): Promise<ConsumerLag> {
    const stream = this.wire.eventStream;
    // The dead letters too: a replay (scripts/dead-letters.mjs, another process) removes some.
    await this.countDeadLetters();
    const info = await this.jsm.consumers.info(stream, this.options.name);
    const pending = info.num_pending + info.num_ack_pending;
    if (pending === 0) return { group: this.options.group, pending, oldestPendingSeconds: 0 };
    // The server answers `next_by_subj` on the plain message API too (2.9+); the client's type lacks it.
    const query = { seq: info.ack_floor.stream_seq + 1, next_by_subj: this.options.filter } as unknown as { seq: number };
    const oldest = await this.jsm.streams.getMessage(stream, query).catch(() => null);
    const oldestPendingSeconds = oldest ? Math.max(0, (Date.now() - oldest.time.getTime()) / 1000) : 0;
    return { group: this.options.group, pending, oldestPendingSeconds };
  }

  /** Stops pulling, hands buffered messages back, waits for the handlers that are running. */
  async stop(): Promise<void> {
    this.stopping = true;
    eventStats.removeLagSource(this);
    await this.messages?.close();
    await this.loop;
    await Promise.allSettled([...this.running]);
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const msg of messages) {
        if (this.stopping) {
          msg.nak(); // back to the group at once, not after the ack wait
          continue;
        }
        await this.options.limit.acquire();
        const work = this.handle(msg).finally(() => this.options.limit.release());
        this.running.add(work);
        void work.finally(() => this.running.delete(work));
      }
    } catch (error) {
      if (!this.stopping) this.logger.error({ group: this.options.group, err: error }, 'Event consumer stopped');
    }
  }

  private async handle(msg: JsMsg): Promise<void> {
    try {
      // stop() may have come while this message waited for a slot.
      if (this.stopping) return msg.nak();
      await this.process(msg);
    } catch (error) {
      this.logger.error({ group: this.options.group, subject: msg.subject, err: error }, 'Could not settle an event');
    }
  }

  private async process(msg: JsMsg): Promise<void> {
    const attempts = msg.info.deliveryCount;
    const subject = this.wire.logical(this.wire.events, msg.subject);
    const meta = metaFromHeaders(msg.headers);
    const context = { group: this.options.group, subject, eventId: meta?.id, attempts };
    if (!meta) {
      this.logger.error(context, 'Event without metadata headers; terminated');
      msg.term();
      return;
    }
    // While a dependency is down, events wait without being tried.
    const paused = this.outage.waitMs();
    if (paused > 0) {
      this.outage.defer();
      eventStats.redelivered(this.options.group, 'outage');
      msg.nak(paused);
      return;
    }
    const message: BusMessage = { subject, meta, data: msg.data };
    const keepAlive = setInterval(() => msg.working(), Math.max(1000, this.options.ackWaitMs / 3));
    try {
      await this.handler(message);
      msg.ack();
      this.contentFailures.delete(meta.id);
      this.missingReferences.delete(meta.id);
      this.outage.succeeded();
    } catch (error) {
      const failure = { ...context, err: error };
      const kind = failureKind(error);
      if (kind === 'infrastructure') {
        eventStats.redelivered(this.options.group, 'outage');
        msg.nak(this.outage.failed(error));
        return;
      }
      if (kind === 'missing_reference') {
        const policy = this.options.policy.missingReference;
        const tries = (this.missingReferences.get(meta.id) ?? 0) + 1;
        if (tries >= policy.maxAttempts) {
          this.missingReferences.delete(meta.id);
          await this.deadLetter(msg, subject, error, attempts);
          this.logger.error({ ...failure, tries }, 'Event still names something unknown after its last try; kept as a dead letter');
          msg.term();
        } else {
          this.missingReferences.set(meta.id, tries);
          const delay = missingReferenceDelay(policy, tries);
          eventStats.redelivered(this.options.group, 'missing_reference');
          this.logger.info({ ...context, tries, missing: errorText(error), retryInMs: delay }, 'Event names something not known here yet; will try again');
          msg.nak(delay);
        }
        return;
      }
      const failures = kind === 'unprocessable' ? Infinity : (this.contentFailures.get(meta.id) ?? 0) + 1;
      if (failures >= this.options.policy.maxDeliver) {
        this.contentFailures.delete(meta.id);
        await this.deadLetter(msg, subject, error, attempts);
        this.logger.error(failure, kind === 'unprocessable' ? 'Event cannot be processed; kept as a dead letter' : 'Event handler failed on the last delivery; kept as a dead letter');
        // No reason text: a server before 2.10 ignores a TERM that has one (the event would come back
        // after the ack wait); the reason is kept with the dead letter and in the log.
        msg.term();
      } else {
        this.contentFailures.set(meta.id, failures);
        const delay = redeliveryDelay(this.options.policy, failures);
        eventStats.redelivered(this.options.group, 'failed');
        this.logger.warn({ ...failure, retryInMs: delay }, 'Event handler failed; will redeliver');
        msg.nak(delay);
      }
    } finally {
      clearInterval(keepAlive);
    }
  }

  /** The dead-letter stream's subject of this group's dead letters. */
  private get deadLetterSubjects(): string {
    return `${this.wire.deadLetters}.${this.options.group}.>`;
  }

  /**
   * Keeps the event in the dead-letter stream, with its own headers and the failure. If that
   * publish fails the error propagates: the message is not terminated and comes back.
   */
  private async deadLetter(msg: JsMsg, subject: string, error: unknown, attempts: number): Promise<void> {
    const headers = natsHeaders();
    for (const [key, values] of msg.headers ?? []) for (const value of values) headers.append(key, value);
    headers.set(DeadLetterHeader.group, this.options.group);
    headers.set(DeadLetterHeader.subject, subject);
    headers.set(DeadLetterHeader.error, errorText(error));
    headers.set(DeadLetterHeader.attempts, String(attempts));
    headers.set(DeadLetterHeader.at, new Date().toISOString());
    // A dead letter has its own message id: the event's id stays in the headers for the replay.
    const eventId = headers.get(MetaHeader.eventId) || headers.get(MetaHeader.id);
    headers.delete(MetaHeader.id);
    headers.set(MetaHeader.eventId, eventId);
    await this.js.publish(`${this.wire.deadLetters}.${this.options.group}.${subject}`, msg.data, { headers });
    deadLetterStats.add(this.options.group);
  }

  private async countDeadLetters(): Promise<void> {
    try {
      const info = await this.jsm.streams.info(this.wire.deadLetterStream, { subjects_filter: this.deadLetterSubjects });
      const count = Object.values(info.state.subjects ?? {}).reduce((sum, n) => sum + n, 0);
      deadLetterStats.set(this.options.group, count);
    } catch (error) {
      this.logger.warn({ group: this.options.group, err: error }, 'Could not count dead letters');
    }
  }

  private async ensureConsumer(): Promise<Consumer> {
    const stream = this.wire.eventStream;
    const { name, filter, ackWaitMs } = this.options;
    const config: Partial<ConsumerConfig> = {
      durable_name: name,
      filter_subject: filter,
      ack_policy: AckPolicy.Explicit,
      // A group created after events were published still receives them (inboxes make the replay
      // of already-applied events harmless).
      deliver_policy: DeliverPolicy.All,
      // Unlimited: an event is never dropped because an outage outlasted its tries (see above).
      max_deliver: -1,
      ack_wait: nanos(ackWaitMs),
      max_ack_pending: 1000,
    };
    try {
      const { config: current } = await this.jsm.consumers.info(stream, name);
      if (
        current.filter_subject !== filter ||
        current.max_deliver !== config.max_deliver ||
        current.ack_wait !== config.ack_wait
      ) {
        await this.jsm.consumers.update(stream, name, {
          filter_subject: filter,
          max_deliver: config.max_deliver,
          ack_wait: config.ack_wait,
        });
      }
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound)) throw error;
      // Replicas starting together may race here; creating an identical durable is idempotent.
      await this.jsm.consumers.add(stream, config);
    }
    return this.js.consumers.get(stream, name);
  }
}
