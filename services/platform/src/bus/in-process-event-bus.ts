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
import { eventStats } from './event-metrics.js';
import { InProcessConsumerGroup } from './in-process-consumer-group.js';
import { redeliveryPolicy } from './redelivery.js';
import { assertName, assertSubject, subjectMatches } from './subjects.js';

export interface InProcessEventBusOptions {
  logger?: BusLogger;
  /**
   * Published events kept for consumer groups that attach later. Single-process mode gets its
   * durability from the outbox (the relay republishes whatever was not dispatched), so this only
   * has to cover start-up, when producers may run before every consumer has attached.
   */
  retainedEvents?: number;
  /** A publish repeating a recent event id is dropped, like JetStream's duplicate window. */
  duplicateWindowMs?: number;
  defaultTimeoutMs?: number;
}

type Listener = (message: BusMessage) => void | Promise<void>;
type Responder = (data: Uint8Array, context: RequestContext) => Promise<Uint8Array>;

interface ResponderEntry {
  subject: string;
  queue: string;
  handler: Responder;
}

/** The bus for single-process mode: every service in one process, no NATS server. */
export class InProcessEventBus implements EventBus {
  private readonly logger: BusLogger;
  private readonly retainedEvents: number;
  private readonly duplicateWindowMs: number;
  private readonly defaultTimeoutMs: number;

  private readonly retained: BusMessage[] = [];
  /** Event id → time it leaves the duplicate window; Map order is insertion order. */
  private readonly recentIds = new Map<string, number>();
  private readonly groups = new Map<string, InProcessConsumerGroup>();
  private readonly listeners = new Set<{ subject: string; listener: Listener }>();
  private readonly responders: ResponderEntry[] = [];
  private readonly roundRobin = new Map<string, number>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(options: InProcessEventBusOptions = {}) {
    this.logger = options.logger ?? defaultBusLogger;
    this.retainedEvents = options.retainedEvents ?? 10_000;
    this.duplicateWindowMs = options.duplicateWindowMs ?? 120_000;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 5_000;
  }

  async publish(message: BusMessage): Promise<void> {
    this.assertOpen();
    assertSubject(message.subject, false);
    if (this.isDuplicate(message.meta.id)) {
      this.logger.debug({ subject: message.subject, eventId: message.meta.id }, 'Duplicate publish dropped');
      return;
    }
    const stored = { ...message, data: message.data.slice() };
    this.retained.push(stored);
    if (this.retained.length > this.retainedEvents) this.retained.shift();
    for (const group of this.groups.values()) group.offer(stored);
    this.fanOut(stored);
  }

  async consume(options: ConsumeOptions, handler: (message: BusMessage) => Promise<void>): Promise<Subscription> {
    this.assertOpen();
    assertName('Durable name', options.durable);
    options.subjects.forEach((subject) => assertSubject(subject, true));
    const policy = redeliveryPolicy(options);
    let group = this.groups.get(options.durable);
    if (group) {
      group.configure(options.subjects, policy);
    } else {
      group = new InProcessConsumerGroup(
        options.durable,
        options.subjects,
        policy,
        this.retainedEvents,
        { track: (work) => this.track(work), schedule: (ms, fn) => this.schedule(ms, fn) },
        this.logger,
        options.outageBackoffMaxMs,
      );
      this.groups.set(options.durable, group);
      eventStats.addLagSource(group);
      // A new group starts from the oldest retained event, like a JetStream durable with
      // deliver policy "all".
      for (const message of this.retained) group.offer(message);
    }
    const member = group.attach(handler, options.concurrency ?? 1);
    const attachedTo = group;
    return { unsubscribe: async () => attachedTo.detach(member) };
  }

  async broadcast(message: BusMessage): Promise<void> {
    this.assertOpen();
    assertSubject(message.subject, false);
    this.fanOut({ ...message, data: message.data.slice() });
  }

  async subscribe(subject: string, listener: Listener): Promise<Subscription> {
    this.assertOpen();
    assertSubject(subject, true);
    const entry = { subject, listener };
    this.listeners.add(entry);
    return { unsubscribe: async () => void this.listeners.delete(entry) };
  }

  async request(subject: string, data: Uint8Array, options: RequestOptions = {}): Promise<Uint8Array> {
    this.assertOpen();
    assertSubject(subject, false);
    const chosen = this.pickResponders(subject);
    if (chosen.length === 0) throw new BusNoResponderError(subject);
    const context: RequestContext = options.requestId ? { requestId: options.requestId } : {};
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;

    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BusTimeoutError(subject)), timeoutMs);
    });
    // Like NATS: every queue group gets the request, the first reply wins.
    const replies = chosen.map((responder) => {
      const reply = this.runResponder(responder, subject, data.slice(), context);
      this.track(reply);
      return reply;
    });
    try {
      return await Promise.race([Promise.any(replies).catch((all: AggregateError) => Promise.reject(all.errors[0])), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async respond(subject: string, queue: string, handler: Responder): Promise<Subscription> {
    this.assertOpen();
    assertSubject(subject, true);
    assertName('Queue group', queue);
    const entry: ResponderEntry = { subject, queue, handler };
    this.responders.push(entry);
    return {
      unsubscribe: async () => {
        const index = this.responders.indexOf(entry);
        if (index >= 0) this.responders.splice(index, 1);
      },
    };
  }

  async isHealthy(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const group of this.groups.values()) {
      group.stop();
      eventStats.removeLagSource(group);
    }
    // Handlers may finish by starting more work (a reply, a log); wait until nothing is left.
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.listeners.clear();
    this.responders.length = 0;
  }

  private async runResponder(responder: ResponderEntry, subject: string, data: Uint8Array, context: RequestContext) {
    try {
      return await responder.handler(data, context);
    } catch (error) {
      this.logger.error({ subject, queue: responder.queue, err: error }, 'Request handler failed');
      throw new BusRemoteError(subject, error instanceof Error ? error.message : String(error));
    }
  }

  /** One responder per queue group, taking turns within a group. */
  private pickResponders(subject: string): ResponderEntry[] {
    const byQueue = new Map<string, ResponderEntry[]>();
    for (const responder of this.responders) {
      if (!subjectMatches(responder.subject, subject)) continue;
      byQueue.set(responder.queue, [...(byQueue.get(responder.queue) ?? []), responder]);
    }
    return [...byQueue].map(([queue, members]) => {
      const turn = this.roundRobin.get(queue) ?? 0;
      this.roundRobin.set(queue, turn + 1);
      return members[turn % members.length]!;
    });
  }

  private fanOut(message: BusMessage): void {
    for (const { subject, listener } of this.listeners) {
      if (!subjectMatches(subject, message.subject)) continue;
      const work = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => listener(message))
        .catch((error: unknown) =>
          this.logger.error({ subject: message.subject, err: error }, 'Subscriber failed on a broadcast'),
        );
      this.track(work);
    }
  }

  private isDuplicate(id: string): boolean {
    const now = Date.now();
    for (const [seen, expires] of this.recentIds) {
      if (expires > now) break;
      this.recentIds.delete(seen);
    }
    if (this.recentIds.has(id)) return true;
    this.recentIds.set(id, now + this.duplicateWindowMs);
    return false;
  }

  private track(work: Promise<unknown>): void {
    this.inFlight.add(work);
    const forget = () => void this.inFlight.delete(work);
    work.then(forget, forget);
  }

  private schedule(ms: number, fn: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) fn();
    }, ms);
    this.timers.add(timer);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Event bus is closed');
  }
}
