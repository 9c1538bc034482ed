import type { BusLogger } from './bus-logger.js';
import { type DeadLetter, deadLetterStats, errorText } from './dead-letters.js';
import type { BusMessage } from './event-bus.port.js';
import { type ConsumerLag, eventStats, type LagSource } from './event-metrics.js';
import { failureKind, OutageGate } from './failure-kind.js';
import { missingReferenceDelay, type RedeliveryPolicy, redeliveryDelay } from './redelivery.js';
import { subjectMatches } from './subjects.js';

type Handler = (message: BusMessage) => Promise<void>;

interface Delivery {
  message: BusMessage;
  /** Deliveries so far, this one included once it is handed out. */
  attempts: number;
  /** Failures on the event's own content (outages do not count). */
  contentFailures?: number;
  /** Tries that met a reference not known yet. */
  missingReferences?: number;
  /** When the group received it (ms). */
  offeredAt: number;
}

export interface GroupMember {
  handler: Handler;
  concurrency: number;
  busy: number;
}

export interface GroupHooks {
  /** Keeps the bus aware of every running handler, so close() can wait for them. */
  track(work: Promise<void>): void;
  /** Runs `fn` after `ms`, unless the bus closes first. */
  schedule(ms: number, fn: () => void): void;
}

/**
 * One durable consumer group: a queue of events matching its subjects, shared by its members so
 * each event reaches one of them. The group outlives its members, like a JetStream durable:
 * events keep queueing while nobody is attached and flow once someone attaches again.
 */
export class InProcessConsumerGroup implements LagSource {
  private readonly queue: Delivery[] = [];
  private readonly members: GroupMember[] = [];
  private nextMember = 0;
  private pumpScheduled = false;
  private stopped = false;
  /** Events given up: kept here with their error for as long as the process runs. */
  readonly deadLetters: Array<DeadLetter & { message: BusMessage }> = [];
  private readonly outage: OutageGate;
  private pauseTimer = false;
  /** Received and not yet handled or given up: queued, running, or waiting to be tried again. */
  private readonly pending = new Set<Delivery>();

  constructor(
    readonly name: string,
    private subjects: string[],
    private policy: RedeliveryPolicy,
    private readonly maxQueued: number,
    private readonly hooks: GroupHooks,
    private readonly logger: BusLogger,
    outageBackoffMaxMs?: number,
  ) {
    this.outage = new OutageGate(
      (error) => this.logger.warn({ group: this.name, err: error }, 'A dependency is unavailable; event handling paused, events wait and are retried'),
      ({ seconds, deferred }) => this.logger.info({ group: this.name, seconds, deferred }, 'Dependency back; event handling resumed'),
      outageBackoffMaxMs,
    );
  }

  /** A later consume() with the same durable name reconfigures the group, as JetStream does. */
  configure(subjects: string[], policy: RedeliveryPolicy): void {
    this.subjects = subjects;
    this.policy = policy;
  }

  accepts(subject: string): boolean {
    return this.subjects.some((pattern) => subjectMatches(pattern, subject));
  }

  offer(message: BusMessage): void {
    if (!this.accepts(message.subject)) return;
    const delivery: Delivery = { message, attempts: 0, offeredAt: Date.now() };
    this.pending.add(delivery);
    this.enqueue(delivery);
  }

  async lag(): Promise<ConsumerLag> {
    let oldest = Infinity;
    for (const delivery of this.pending) oldest = Math.min(oldest, delivery.offeredAt);
    const oldestPendingSeconds = this.pending.size > 0 ? Math.max(0, (Date.now() - oldest) / 1000) : 0;
    return { group: this.name, pending: this.pending.size, oldestPendingSeconds };
  }

  attach(handler: Handler, concurrency: number): GroupMember {
    const member: GroupMember = { handler, concurrency, busy: 0 };
    this.members.push(member);
    this.schedulePump();
    return member;
  }

  detach(member: GroupMember): void {
    const index = this.members.indexOf(member);
    if (index >= 0) this.members.splice(index, 1);
  }

  stop(): void {
    this.stopped = true;
  }

  private enqueue(delivery: Delivery): void {
    if (this.queue.length >= this.maxQueued) {
      const dropped = this.queue.shift()!;
      this.pending.delete(dropped);
      this.logger.warn({ group: this.name, eventId: dropped.message.meta.id }, 'Consumer group queue full; oldest event dropped');
    }
    this.queue.push(delivery);
    this.schedulePump();
  }

  // Deliveries start on a later tick, never inside the publisher's call stack.
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    const paused = this.outage.waitMs();
    if (paused > 0) {
      if (!this.pauseTimer) {
        this.pauseTimer = true;
        this.hooks.schedule(paused, () => {
          this.pauseTimer = false;
          this.schedulePump();
        });
      }
      return;
    }
    while (!this.stopped && this.queue.length > 0) {
      const member = this.freeMember();
      if (!member) return;
      this.deliver(member, this.queue.shift()!);
    }
  }

  private freeMember(): GroupMember | undefined {
    for (let i = 0; i < this.members.length; i++) {
      const member = this.members[(this.nextMember + i) % this.members.length]!;
      if (member.busy < member.concurrency) {
        this.nextMember = (this.nextMember + i + 1) % this.members.length;
        return member;
      }
    }
    return undefined;
  }

  private deliver(member: GroupMember, delivery: Delivery): void {
    member.busy++;
    delivery.attempts++;
    const work = member
      .handler(delivery.message)
      .then(() => {
        this.pending.delete(delivery);
        this.outage.succeeded();
      })
      .catch((error: unknown) => this.failed(delivery, error))
      .finally(() => {
        member.busy--;
        this.schedulePump();
      });
    this.hooks.track(work);
  }

  private failed(delivery: Delivery, error: unknown): void {
    const { meta, subject } = delivery.message;
    const context = { group: this.name, subject, eventId: meta.id, attempts: delivery.attempts, err: error };
    const kind = failureKind(error);
    if (kind === 'infrastructure') {
      // Back in the queue at once; the group pauses before trying anything again.
      this.outage.failed(error);
      eventStats.redelivered(this.name, 'outage');
      this.queue.unshift(delivery);
      this.schedulePump();
      return;
    }
    if (kind === 'missing_reference') {
      const policy = this.policy.missingReference;
      delivery.missingReferences = (delivery.missingReferences ?? 0) + 1;
      if (delivery.missingReferences >= policy.maxAttempts) {
        this.keepDeadLetter(delivery, error);
        this.logger.error({ ...context, tries: delivery.missingReferences }, 'Event still names something unknown after its last try; kept as a dead letter');
      } else {
        const delay = missingReferenceDelay(policy, delivery.missingReferences);
        eventStats.redelivered(this.name, 'missing_reference');
        this.logger.info({ group: this.name, subject, eventId: meta.id, attempts: delivery.attempts, tries: delivery.missingReferences, missing: errorText(error), retryInMs: delay }, 'Event names something not known here yet; will try again');
        this.hooks.schedule(delay, () => this.enqueue(delivery));
      }
      return;
    }
    delivery.contentFailures = kind === 'unprocessable' ? Infinity : (delivery.contentFailures ?? 0) + 1;
    if (delivery.contentFailures >= this.policy.maxDeliver) {
      this.keepDeadLetter(delivery, error);
      this.logger.error(context, kind === 'unprocessable' ? 'Event cannot be processed; kept as a dead letter' : 'Event handler failed on the last delivery; kept as a dead letter');
    } else {
      const delay = redeliveryDelay(this.policy, delivery.contentFailures);
      this.logger.warn({ ...context, retryInMs: delay }, 'Event handler failed; will redeliver');
      eventStats.redelivered(this.name, 'failed');
      this.hooks.schedule(delay, () => this.enqueue(delivery));
    }
  }

  private keepDeadLetter(delivery: Delivery, error: unknown): void {
    const { meta, subject } = delivery.message;
    this.pending.delete(delivery);
    this.deadLetters.push({ group: this.name, subject, eventId: meta.id, attempts: delivery.attempts, error: errorText(error), at: new Date().toISOString(), message: delivery.message });
    deadLetterStats.add(this.name);
  }
}
