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
import { nanos } from '@nats-io/transport-node';
import type { BusLogger } from './bus-logger.js';
import { type BusMessage, UnprocessableMessageError } from './event-bus.port.js';
import { metaFromHeaders } from './jetstream-headers.js';
import type { BusWire } from './jetstream-streams.js';
import { type RedeliveryPolicy, redeliveryDelay } from './redelivery.js';

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
}

type Handler = (message: BusMessage) => Promise<void>;

/**
 * One durable pull consumer and the loop that feeds its messages to a handler.
 *
 * Retries are client-driven: a failed handler naks with the back-off delay of that attempt, and
 * the last allowed attempt terms the message. The consumer's server-side `backoff` list is left
 * unset on purpose: JetStream uses its first entry as the ack wait, which would redeliver a slow
 * handler that is still running. `max_deliver` still caps deliveries after crashes.
 */
export class JetStreamPullLoop {
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;
  private stopping = false;
  private readonly running = new Set<Promise<void>>();

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
    // A small buffer: messages pulled but not started wait out the ack wait if this process dies,
    // and spread better over the replicas of the group.
    this.messages = await consumer.consume({ max_messages: Math.max(10, this.options.limit.max * 2) });
    this.loop = this.run(this.messages);
  }

  /** Stops pulling, hands buffered messages back, waits for the handlers that are running. */
  async stop(): Promise<void> {
    this.stopping = true;
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
      msg.term('missing metadata headers');
      return;
    }
    const message: BusMessage = { subject, meta, data: msg.data };
    const keepAlive = setInterval(() => msg.working(), Math.max(1000, this.options.ackWaitMs / 3));
    try {
      await this.handler(message);
      msg.ack();
    } catch (error) {
      const failure = { ...context, err: error };
      if (error instanceof UnprocessableMessageError) {
        this.logger.error(failure, 'Event cannot be processed; terminated');
        msg.term(error.message);
      } else if (attempts >= this.options.policy.maxDeliver) {
        this.logger.error(failure, 'Event handler failed on the last delivery; terminated');
        msg.term('max deliveries reached');
      } else {
        const delay = redeliveryDelay(this.options.policy, attempts);
        this.logger.warn({ ...failure, retryInMs: delay }, 'Event handler failed; will redeliver');
        msg.nak(delay);
      }
    } finally {
      clearInterval(keepAlive);
    }
  }

  private async ensureConsumer(): Promise<Consumer> {
    const stream = this.wire.eventStream;
    const { name, filter, policy, ackWaitMs } = this.options;
    const config: Partial<ConsumerConfig> = {
      durable_name: name,
      filter_subject: filter,
      ack_policy: AckPolicy.Explicit,
      // A group created after events were published still receives them (inboxes make the replay
      // of already-applied events harmless).
      deliver_policy: DeliverPolicy.All,
      max_deliver: policy.maxDeliver,
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
