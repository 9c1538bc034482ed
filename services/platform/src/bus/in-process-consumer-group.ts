import type { BusLogger } from './bus-logger.js';
import { type BusMessage, UnprocessableMessageError } from './event-bus.port.js';
import { type RedeliveryPolicy, redeliveryDelay } from './redelivery.js';
import { subjectMatches } from './subjects.js';

type Handler = (message: BusMessage) => Promise<void>;

interface Delivery {
  message: BusMessage;
  /** Deliveries so far, this one included once it is handed out. */
  attempts: number;
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
export class InProcessConsumerGroup {
  private readonly queue: Delivery[] = [];
  private readonly members: GroupMember[] = [];
  private nextMember = 0;
  private pumpScheduled = false;
  private stopped = false;

  constructor(
    readonly name: string,
    private subjects: string[],
    private policy: RedeliveryPolicy,
    private readonly maxQueued: number,
    private readonly hooks: GroupHooks,
    private readonly logger: BusLogger,
  ) {}

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
    this.enqueue({ message, attempts: 0 });
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
    if (error instanceof UnprocessableMessageError) {
      this.logger.error(context, 'Event cannot be processed; given up');
    } else if (delivery.attempts >= this.policy.maxDeliver) {
      this.logger.error(context, 'Event handler failed on the last delivery; given up');
    } else {
      const delay = redeliveryDelay(this.policy, delivery.attempts);
      this.logger.warn({ ...context, retryInMs: delay }, 'Event handler failed; will redeliver');
      this.hooks.schedule(delay, () => this.enqueue(delivery));
    }
  }
}
