/**
 * The event bus port. Two adapters implement it and pass one contract suite:
 * JetStream (production, many processes) and in-process (single-process mode).
 *
 * Three kinds of traffic:
 * - domain events: durable, at-least-once, each event handled once per consumer group (`durable`);
 *   published only by the outbox relay, de-duplicated by `meta.id` (Nats-Msg-Id);
 * - broadcasts: ephemeral fan-out to every subscriber (gateway caches, realtime `/ws` messages);
 * - request/reply: one responder of a queue group answers (e.g. the gateway's session check).
 *
 * Subjects given here are logical (`auth.user.registered.v1`); adapters add the deployment's
 * prefix so test runs and environments never collide. Typed helpers over this port live beside
 * it: `consumeEvents` (inbox, decoding), `Outbox`/`OutboxRelay` (producing), `requestRpc`/`serveRpc`.
 */
export interface EventMeta {
  /** Unique event id (UUID); also the de-duplication key. */
  id: string;
  /** Logical event type, e.g. `auth.user.registered`. */
  type: string;
  version: number;
  /** ISO-8601 time the change happened. */
  occurredAt: string;
  actorUserId?: string;
  requestId?: string;
}

export interface BusMessage {
  subject: string;
  meta: EventMeta;
  /** Protobuf binary of the event's message (JSON text for realtime broadcasts). */
  data: Uint8Array;
}

export interface Subscription {
  unsubscribe(): Promise<void>;
}

export interface ConsumeOptions {
  /** Consumer group name: replicas sharing it split the work, each event handled once per group. */
  durable: string;
  /** Logical subjects (wildcards allowed: `auth.>`). */
  subjects: string[];
  /**
   * Tries before an event that fails on its own content becomes a dead letter (kept, logged,
   * replayable); default 5. Failures because a dependency is down never count: those events wait
   * and are retried for as long as the outage lasts.
   */
  maxDeliver?: number;
  /** Longest pause between tries while a dependency is down; default 30 s. */
  outageBackoffMaxMs?: number;
  /** Redelivery back-off in ms, one per attempt (the last repeats); default [200, 1000, 5000, 15000]. */
  backoffMs?: number[];
  /** Handlers this subscriber runs at once; default 1 (events of a subject handled in order). */
  concurrency?: number;
  /**
   * An event whose handler threw MissingReferenceError (it names something this service has not
   * heard of yet): tried again after a growing delay, at most `maxAttempts` times in all, then a
   * dead letter. Default 20 tries, 1 s doubling to 5 min (about an hour in all).
   */
  missingReference?: Partial<MissingReferencePolicy>;
}

export interface MissingReferencePolicy {
  maxAttempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

export interface RequestOptions {
  timeoutMs?: number;
  requestId?: string;
}

export interface RequestContext {
  requestId?: string;
}

export interface EventBus {
  /** Durable publish of a committed domain event (called by the outbox relay). */
  publish(message: BusMessage): Promise<void>;
  /**
   * Durable consumption; handler resolving = ack, throwing = redelivery with back-off, throwing
   * UnprocessableMessageError = given up at once. A group created after events were published
   * still receives them.
   */
  consume(options: ConsumeOptions, handler: (message: BusMessage) => Promise<void>): Promise<Subscription>;
  /** Ephemeral fan-out: every live subscriber receives it; nothing is stored. */
  broadcast(message: BusMessage): Promise<void>;
  /**
   * Live fan-out to this process: broadcasts on the subject, and copies of domain events published
   * on it (so every gateway replica can drop a cache entry on `auth.session.revoked.v1`). Nothing
   * is replayed and nothing is acknowledged.
   */
  subscribe(subject: string, handler: (message: BusMessage) => void | Promise<void>): Promise<Subscription>;
  /** Request/reply: rejects with BusTimeoutError / BusNoResponderError / BusRemoteError. */
  request(subject: string, data: Uint8Array, options?: RequestOptions): Promise<Uint8Array>;
  respond(
    subject: string,
    queue: string,
    handler: (data: Uint8Array, context: RequestContext) => Promise<Uint8Array>,
  ): Promise<Subscription>;
  /** True when the transport is connected and usable (readiness). */
  isHealthy(): Promise<boolean>;
  /** Finish in-flight handlers, then disconnect. */
  close(): Promise<void>;
}

export class BusTimeoutError extends Error {
  constructor(subject: string) {
    super(`No reply on ${subject} in time`);
    this.name = 'BusTimeoutError';
  }
}

export class BusNoResponderError extends Error {
  constructor(subject: string) {
    super(`No responder for ${subject}`);
    this.name = 'BusNoResponderError';
  }
}

/** The responder's handler failed; its message is passed on, its stack stays with the responder. */
export class BusRemoteError extends Error {
  constructor(subject: string, reason: string) {
    super(`Responder for ${subject} failed: ${reason}`);
    this.name = 'BusRemoteError';
  }
}

/**
 * Thrown by a consume handler for a message that can never succeed (it does not decode, it has no
 * id): the adapter gives it up at once instead of redelivering it until maxDeliver.
 */
export class UnprocessableMessageError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UnprocessableMessageError';
  }
}

/**
 * Thrown by a consume handler whose event names something this service keeps a copy of but has
 * not heard of yet (a comment on a timeline whose creation another consumer has not applied):
 * the event is not skipped but tried again after a growing delay (the consumer's
 * `missingReference` policy), and kept as a dead letter, with this error, if the reference never
 * comes. The handler's transaction rolls back, so nothing of the event is applied meanwhile.
 */
export class MissingReferenceError extends Error {
  constructor(
    /** What is missing: `timeline`, `user`, `video`, ... */
    readonly kind: string,
    readonly id: string,
  ) {
    super(`${kind} ${id} is not known here yet`);
    this.name = 'MissingReferenceError';
  }
}
