import { type JetStreamClient, type JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream';
import {
  connect,
  type Msg,
  type NatsConnection,
  NoRespondersError,
  RequestError,
  type Subscription as NatsSubscription,
  TimeoutError,
  headers as natsHeaders,
} from '@nats-io/transport-node';
import { type BusLogger, defaultBusLogger } from './bus-logger.js';
import {
  type BusMessage,
  BusNoResponderError,
  BusRemoteError,
  BusTimeoutError,
  type ConsumeOptions,
  type EventBus,
  type RequestContext,
  type RequestOptions,
  type Subscription,
} from './event-bus.port.js';
import { ConcurrencyLimit, JetStreamPullLoop } from './jetstream-consumer.js';
import { MetaHeader, metaFromHeaders, metaToHeaders, requestIdHeaders } from './jetstream-headers.js';
import { BusWire, type EventStreamOptions, ensureDeadLetterStream, ensureEventStream } from './jetstream-streams.js';
import { OutageGate } from './failure-kind.js';
import { redeliveryPolicy } from './redelivery.js';
import { assertName, assertSubject } from './subjects.js';

export interface JetStreamEventBusOptions {
  servers: string | string[];
  /** Deployment prefix of every subject and stream on the wire (`tl`); one per test run. */
  prefix: string;
  /** Connection name shown by the NATS server (`auth`, `gateway`, ...). */
  name?: string;
  logger?: BusLogger;
  stream?: EventStreamOptions;
  /** Redelivery after a process died holding an event; default 30 s, extended while handlers run. */
  ackWaitMs?: number;
  defaultTimeoutMs?: number;
}

/** The production bus: JetStream for domain events, core NATS for broadcasts and request/reply. */
export class JetStreamEventBus implements EventBus {
  private readonly loops = new Set<JetStreamPullLoop>();
  private readonly subscriptions = new Set<NatsSubscription>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing?: Promise<void>;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly wire: BusWire,
    private readonly options: JetStreamEventBusOptions,
    private readonly logger: BusLogger,
  ) {}

  static async connect(options: JetStreamEventBusOptions): Promise<JetStreamEventBus> {
    const wire = new BusWire(options.prefix);
    const logger = options.logger ?? defaultBusLogger;
    // Reconnect forever: a NATS restart must not take the service down with it.
    const nc = await connect({ servers: options.servers, name: options.name, maxReconnectAttempts: -1 });
    try {
      const jsm = await jetstreamManager(nc);
      await ensureEventStream(jsm, wire, options.stream, logger);
      await ensureDeadLetterStream(jsm, wire, options.stream, logger);
      const bus = new JetStreamEventBus(nc, jsm, jetstream(nc), wire, options, logger);
      bus.watchConnection();
      return bus;
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  async publish(message: BusMessage): Promise<void> {
    this.assertOpen();
    assertSubject(message.subject, false);
    const ack = await this.js.publish(this.wire.event(message.subject), message.data, {
      msgID: message.meta.id,
      headers: metaToHeaders(message.meta),
    });
    if (ack.duplicate) this.logger.debug({ subject: message.subject, eventId: message.meta.id }, 'Duplicate publish dropped');
  }

  async consume(options: ConsumeOptions, handler: (message: BusMessage) => Promise<void>): Promise<Subscription> {
    this.assertOpen();
    assertName('Durable name', options.durable);
    options.subjects.forEach((subject) => assertSubject(subject, true));
    const policy = redeliveryPolicy(options);
    const limit = new ConcurrencyLimit(options.concurrency ?? 1);
    // One outage for all the subjects of a group: paused and logged together.
    const outage = new OutageGate(
      (error) => this.logger.warn({ group: options.durable, err: error }, 'A dependency is unavailable; event handling paused, events wait and are retried'),
      ({ seconds, deferred }) => this.logger.info({ group: options.durable, seconds, deferred }, 'Dependency back; event handling resumed'),
      options.outageBackoffMaxMs,
    );
    // One JetStream consumer per subject: multi-subject filters need nats-server 2.10, and
    // per-subject consumers keep each subject's events in order.
    const loops = options.subjects.map(
      (subject) =>
        new JetStreamPullLoop(
          this.jsm,
          this.js,
          this.wire,
          {
            group: options.durable,
            name: `${options.durable}__${consumerToken(subject)}`,
            filter: this.wire.event(subject),
            policy,
            limit,
            outage,
            ackWaitMs: this.options.ackWaitMs ?? 30_000,
          },
          handler,
          this.logger,
        ),
    );
    try {
      for (const loop of loops) {
        await loop.start();
        this.loops.add(loop);
      }
    } catch (error) {
      await Promise.all(loops.map((loop) => this.stopLoop(loop)));
      throw error;
    }
    return { unsubscribe: async () => void (await Promise.all(loops.map((loop) => this.stopLoop(loop)))) };
  }

  async broadcast(message: BusMessage): Promise<void> {
    this.assertOpen();
    assertSubject(message.subject, false);
    this.nc.publish(this.wire.broadcast(message.subject), message.data, { headers: metaToHeaders(message.meta) });
  }

  async subscribe(subject: string, handler: (message: BusMessage) => void | Promise<void>): Promise<Subscription> {
    this.assertOpen();
    assertSubject(subject, true);
    // Broadcasts, and the live copy core NATS delivers of every event the stream stores.
    const subs = [this.wire.broadcasts, this.wire.events].map((root) =>
      this.nc.subscribe(`${root}.${subject}`, {
        callback: (error, msg) => {
          if (error) return this.logger.error({ subject, err: error }, 'Subscription failed');
          const meta = metaFromHeaders(msg.headers);
          if (!meta) return this.logger.warn({ subject: msg.subject }, 'Broadcast without metadata headers dropped');
          const message: BusMessage = { subject: this.wire.logical(root, msg.subject), meta, data: msg.data };
          this.track(
            Promise.resolve()
              .then(() => handler(message))
              .catch((failure: unknown) =>
                this.logger.error({ subject: message.subject, err: failure }, 'Subscriber failed on a broadcast'),
              ),
          );
        },
      }),
    );
    subs.forEach((sub) => this.subscriptions.add(sub));
    // Once subscribe() resolves the server knows the interest, so a publish from any other
    // connection reaches it.
    await this.nc.flush();
    return { unsubscribe: async () => void (await Promise.all(subs.map((sub) => this.drain(sub)))) };
  }

  async request(subject: string, data: Uint8Array, options: RequestOptions = {}): Promise<Uint8Array> {
    this.assertOpen();
    assertSubject(subject, false);
    let reply: Msg;
    try {
      reply = await this.nc.request(this.wire.rpc(subject), data, {
        timeout: options.timeoutMs ?? this.options.defaultTimeoutMs ?? 5_000,
        headers: requestIdHeaders(options.requestId),
      });
    } catch (error) {
      if (hasCause(error, NoRespondersError) || (error instanceof RequestError && error.isNoResponders())) {
        throw new BusNoResponderError(subject);
      }
      if (hasCause(error, TimeoutError)) throw new BusTimeoutError(subject);
      throw error;
    }
    const remoteError = reply.headers?.get(MetaHeader.rpcError);
    if (remoteError) throw new BusRemoteError(subject, remoteError);
    return reply.data;
  }

  async respond(
    subject: string,
    queue: string,
    handler: (data: Uint8Array, context: RequestContext) => Promise<Uint8Array>,
  ): Promise<Subscription> {
    this.assertOpen();
    assertSubject(subject, true);
    assertName('Queue group', queue);
    const sub = this.nc.subscribe(this.wire.rpc(subject), {
      queue,
      callback: (error, msg) => {
        if (error) return this.logger.error({ subject, err: error }, 'Responder subscription failed');
        this.track(this.answer(msg, subject, handler));
      },
    });
    this.subscriptions.add(sub);
    await this.nc.flush(); // a request from another connection must not find "no responders"
    return { unsubscribe: () => this.drain(sub) };
  }

  async isHealthy(): Promise<boolean> {
    if (this.closing || this.nc.isClosed()) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 1000)));
    try {
      return await Promise.race([this.nc.rtt().then(() => true), timeout]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    // Stop taking work, let running handlers finish (and ack), then leave.
    await Promise.all([...this.loops].map((loop) => this.stopLoop(loop)));
    await Promise.all([...this.subscriptions].map((sub) => this.drain(sub)));
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.nc.drain().catch((error: unknown) => this.logger.warn({ err: error }, 'NATS drain failed'));
  }

  private async answer(
    msg: Msg,
    subject: string,
    handler: (data: Uint8Array, context: RequestContext) => Promise<Uint8Array>,
  ): Promise<void> {
    const requestId = msg.headers?.get(MetaHeader.requestId) || undefined;
    try {
      const reply = await handler(msg.data, requestId ? { requestId } : {});
      msg.respond(reply);
    } catch (error) {
      this.logger.error({ subject, requestId, err: error }, 'Request handler failed');
      const headers = natsHeaders();
      const reason = error instanceof Error ? error.message : String(error);
      headers.set(MetaHeader.rpcError, reason.replace(/[^\x20-\x7e]/g, ' ').slice(0, 512) || 'error');
      msg.respond(new Uint8Array(), { headers });
    }
  }

  private async stopLoop(loop: JetStreamPullLoop): Promise<void> {
    this.loops.delete(loop);
    await loop.stop();
  }

  private async drain(sub: NatsSubscription): Promise<void> {
    this.subscriptions.delete(sub);
    if (!sub.isClosed()) await sub.drain().catch(() => undefined);
  }

  private track(work: Promise<unknown>): void {
    this.inFlight.add(work);
    const forget = () => void this.inFlight.delete(work);
    work.then(forget, forget);
  }

  private watchConnection(): void {
    void (async () => {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect') this.logger.warn({ server: status.server }, 'NATS disconnected');
        if (status.type === 'reconnect') this.logger.info({ server: status.server }, 'NATS reconnected');
      }
    })().catch(() => undefined);
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('Event bus is closed');
  }
}

/** `auth.user.>` → `auth_user_all`: a subject as a consumer-name token. */
function consumerToken(subject: string): string {
  return subject.replace(/\./g, '_').replace(/\*/g, 'any').replace(/>/g, 'all');
}

function hasCause(error: unknown, type: new (...args: never[]) => Error): boolean {
  let current: unknown = error;
  while (current instanceof Error) {
    const cause: unknown = current.cause;
    if (current instanceof type) return true;
    current = cause;
  }
  return false;
}
