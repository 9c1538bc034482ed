import type { BusMessage, EventBus, Logger, Subscription } from '@timeliner/platform';
import { Realtime } from '@timeliner/proto';

/** The part of a socket the hub needs. */
export interface TopicSubscriber {
  readonly userId: string | undefined;
  readonly sessionId: string | undefined;
  deliver(frame: Buffer): void;
  close(code: number, reason: string): void;
  /** Tells the client it no longer receives a topic (its access ended). */
  notify(message: Record<string, unknown>): void;
}

/**
 * Which of this replica's sockets watch which topic (`timeline:<id>`, `user:<id>`), and the
 * delivery of bus messages to them.
 */
export class TopicHub {
  private readonly byTopic = new Map<string, Set<TopicSubscriber>>();
  private readonly topicsOf = new Map<TopicSubscriber, Set<string>>();

  constructor(
    private readonly logger: Logger,
    private readonly onDelivered: (count: number) => void = () => undefined,
  ) {}

  add(subscriber: TopicSubscriber): void {
    if (!this.topicsOf.has(subscriber)) this.topicsOf.set(subscriber, new Set());
  }

  remove(subscriber: TopicSubscriber): void {
    for (const topic of this.topicsOf.get(subscriber) ?? []) this.leave(subscriber, topic);
    this.topicsOf.delete(subscriber);
  }

  join(subscriber: TopicSubscriber, topic: string): void {
    this.add(subscriber);
    this.topicsOf.get(subscriber)!.add(topic);
    let watchers = this.byTopic.get(topic);
    if (!watchers) this.byTopic.set(topic, (watchers = new Set()));
    watchers.add(subscriber);
  }

  leave(subscriber: TopicSubscriber, topic: string): void {
    this.topicsOf.get(subscriber)?.delete(topic);
    const watchers = this.byTopic.get(topic);
    watchers?.delete(subscriber);
    if (watchers?.size === 0) this.byTopic.delete(topic);
  }

  /** The sockets of this replica watching a topic. */
  watchersOf(topic: string): TopicSubscriber[] {
    return [...(this.byTopic.get(topic) ?? [])];
  }

  /** Each topic of this replica's sockets that match, with the socket. */
  watchesOf(predicate: (subscriber: TopicSubscriber) => boolean): Array<{ topic: string; subscriber: TopicSubscriber }> {
    const found: Array<{ topic: string; subscriber: TopicSubscriber }> = [];
    for (const [subscriber, topics] of this.topicsOf) if (predicate(subscriber)) for (const topic of topics) found.push({ topic, subscriber });
    return found;
  }

  topicCount(subscriber: TopicSubscriber): number {
    return this.topicsOf.get(subscriber)?.size ?? 0;
  }

  /** Forwards a realtime broadcast, as the JSON text it already is, to the sockets watching its topic. */
  deliver(message: BusMessage): void {
    const topic = Realtime.topicOfSubject(message.subject);
    if (!topic) return;
    const watchers = this.byTopic.get(Realtime.formatTopic(topic));
    if (!watchers || watchers.size === 0) return;
    try {
      Realtime.decode(message.data);
    } catch (error) {
      this.logger.warn({ err: error, subject: message.subject, eventId: message.meta.id }, 'malformed realtime message dropped');
      return;
    }
    const frame = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
    for (const watcher of watchers) watcher.deliver(frame);
    this.onDelivered(watchers.size);
  }

  closeWhere(predicate: (subscriber: TopicSubscriber) => boolean, code: number, reason: string): number {
    let closed = 0;
    for (const subscriber of [...this.topicsOf.keys()]) {
      if (!predicate(subscriber)) continue;
      subscriber.close(code, reason);
      closed++;
    }
    return closed;
  }

  get connections(): number {
    return this.topicsOf.size;
  }
}

/**
 * Feeds the hub from the bus. Every replica subscribes once to all realtime subjects and drops
 * what none of its sockets watch, rather than subscribing per topic: no subscription churn as
 * sockets come and go, no window in which a just-confirmed subscription misses a message while
 * the bus registers interest, and any replica can serve any socket. The cost, every replica
 * seeing every realtime message, is small for progress-sized messages; per-topic subscriptions
 * with reference counts are the change to make if that traffic ever dominates.
 */
export function relayRealtime(bus: EventBus, hub: TopicHub): Promise<Subscription> {
  return bus.subscribe(Realtime.allSubjects, (message) => hub.deliver(message));
}
