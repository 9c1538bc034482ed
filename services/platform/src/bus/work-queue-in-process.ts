import type { DescMessage, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import type { EventDefinition } from '@timeliner/proto';
import { type BusLogger, defaultBusLogger } from './bus-logger.js';
import type { Subscription } from './event-bus.port.js';
import {
  assertJobId,
  type Delivery,
  encodeJob,
  type EnqueueOptions,
  type EnqueueResult,
  InFlight,
  type JobHandler,
  type JobMeta,
  type Outcome,
  type ProcessOptions,
  resolveProcessOptions,
  runDelivery,
  WORK_DEFAULTS,
  type WorkQueue,
} from './work-queue.js';

interface QueuedJob {
  id: string;
  data: Uint8Array;
  meta: JobMeta;
  /** Deliveries so far. */
  attempts: number;
}

interface Worker {
  run: (delivery: Delivery) => Promise<Outcome>;
  concurrency: number;
  busy: number;
  abort: AbortController;
  running: InFlight;
}

/** The jobs of one definition and the workers taking them. */
class JobQueue {
  readonly waiting: QueuedJob[] = [];
  /** Queued, running or waiting for a retry. */
  readonly pending = new Set<string>();
  readonly workers: Worker[] = [];
  next = 0;
}

/**
 * Work queues for single-process mode, with the JetStream adapter's semantics while the process
 * runs. Nothing survives a restart: the queue is memory. Owners of work re-queue from their
 * durable state on start (the media worker does it for media left in `processing`).
 */
export class InProcessWorkQueue implements WorkQueue {
  private readonly queues = new Map<string, JobQueue>();
  /** `subject:id` → time it leaves the duplicate window (Map order is insertion order). */
  private readonly recent = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new InFlight();
  private readonly logger: BusLogger;
  private readonly duplicateWindowMs: number;
  private closed = false;

  constructor(options: { logger?: BusLogger; duplicateWindowMs?: number } = {}) {
    this.logger = options.logger ?? defaultBusLogger;
    this.duplicateWindowMs = options.duplicateWindowMs ?? WORK_DEFAULTS.duplicateWindowMs;
  }

  async enqueue<Schema extends DescMessage>(
    definition: EventDefinition<Schema>,
    payload: MessageInitShape<Schema>,
    options: EnqueueOptions,
  ): Promise<EnqueueResult> {
    this.assertOpen();
    assertJobId(options.id);
    const queue = this.queue(definition.subject);
    if (queue.pending.has(options.id) || this.recentlyEnqueued(`${definition.subject}:${options.id}`)) {
      this.logger.debug({ queue: definition.subject, jobId: options.id }, 'Duplicate job dropped');
      return { duplicate: true };
    }
    const meta: JobMeta = {
      id: options.id,
      type: definition.type,
      version: definition.version,
      enqueuedAt: new Date().toISOString(),
      ...(options.actorUserId ? { actorUserId: options.actorUserId } : {}),
      ...(options.requestId ? { requestId: options.requestId } : {}),
    };
    queue.pending.add(options.id);
    queue.waiting.push({ id: options.id, data: encodeJob(definition, payload), meta, attempts: 0 });
    this.pump(queue);
    return { duplicate: false };
  }

  async process<Schema extends DescMessage>(
    definition: EventDefinition<Schema>,
    options: ProcessOptions,
    handler: JobHandler<MessageShape<Schema>>,
  ): Promise<Subscription> {
    this.assertOpen();
    const resolved = resolveProcessOptions(options);
    const queue = this.queue(definition.subject);
    const worker: Worker = {
      run: (delivery) => runDelivery(definition, handler, delivery, resolved, this.logger),
      concurrency: resolved.concurrency,
      busy: 0,
      abort: new AbortController(),
      running: new InFlight(),
    };
    queue.workers.push(worker);
    this.pump(queue);
    return {
      unsubscribe: async () => {
        const index = queue.workers.indexOf(worker);
        if (index >= 0) queue.workers.splice(index, 1);
        worker.abort.abort();
        await worker.running.settle();
      },
    };
  }

  async isPending(definition: EventDefinition, id: string): Promise<boolean> {
    assertJobId(id);
    return this.queues.get(definition.subject)?.pending.has(id) ?? false;
  }

  async isHealthy(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const queue of this.queues.values()) {
      for (const worker of queue.workers) worker.abort.abort();
    }
    await this.inFlight.settle();
  }

  private queue(subject: string): JobQueue {
    let queue = this.queues.get(subject);
    if (!queue) {
      queue = new JobQueue();
      this.queues.set(subject, queue);
    }
    return queue;
  }

  private recentlyEnqueued(key: string): boolean {
    const now = Date.now();
    for (const [seen, expires] of this.recent) {
      if (expires > now) break;
      this.recent.delete(seen);
    }
    if (this.recent.has(key)) return true;
    this.recent.set(key, now + this.duplicateWindowMs);
    return false;
  }

  /** Hands waiting jobs to free workers, taking turns; deliveries start on a later tick. */
  private pump(queue: JobQueue): void {
    setImmediate(() => {
      while (!this.closed && queue.waiting.length > 0) {
        const worker = this.freeWorker(queue);
        if (!worker) return;
        this.deliver(queue, worker, queue.waiting.shift()!);
      }
    });
  }

  private freeWorker(queue: JobQueue): Worker | undefined {
    for (let i = 0; i < queue.workers.length; i++) {
      const worker = queue.workers[(queue.next + i) % queue.workers.length]!;
      if (worker.busy < worker.concurrency) {
        queue.next = (queue.next + i + 1) % queue.workers.length;
        return worker;
      }
    }
    return undefined;
  }

  private deliver(queue: JobQueue, worker: Worker, job: QueuedJob): void {
    worker.busy++;
    job.attempts++;
    const work = worker
      .run({ id: job.id, data: job.data, meta: job.meta, attempt: job.attempts, signal: worker.abort.signal, working: () => undefined })
      .then(
        (outcome) => this.settle(queue, job, outcome),
        (error: unknown) => {
          this.logger.error({ jobId: job.id, err: error }, 'Could not settle a job');
          this.settle(queue, job, { kind: 'retry', delayMs: 1_000 });
        },
      )
      .finally(() => {
        worker.busy--;
        this.pump(queue);
      });
    this.inFlight.track(work);
    worker.running.track(work);
  }

  private settle(queue: JobQueue, job: QueuedJob, outcome: Outcome): void {
    switch (outcome.kind) {
      case 'done':
      case 'give-up':
        queue.pending.delete(job.id);
        return;
      case 'aborted':
        // Another worker of this process may still take it; if the process is closing it is lost
        // with the rest of the queue (see the class comment).
        queue.waiting.unshift(job);
        this.pump(queue);
        return;
      case 'retry': {
        if (this.closed) return;
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (this.closed) return;
          queue.waiting.push(job);
          this.pump(queue);
        }, outcome.delayMs);
        this.timers.add(timer);
      }
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Work queue is closed');
  }
}

/**
 * In single-process mode the API (which enqueues) and the worker (which processes) must meet on
 * one queue; each gets a handle on a queue shared per prefix, closed with its last handle.
 */
const sharedQueues = new Map<string, { queue: InProcessWorkQueue; handles: number }>();

export function openSharedInProcessWorkQueue(prefix: string, logger?: BusLogger): WorkQueue {
  let entry = sharedQueues.get(prefix);
  if (!entry) {
    entry = { queue: new InProcessWorkQueue({ logger }), handles: 0 };
    sharedQueues.set(prefix, entry);
  }
  entry.handles++;
  const shared = entry;
  const subscriptions = new Set<Subscription>();
  let closing: Promise<void> | undefined;
  const assertOpen = () => {
    if (closing) throw new Error('Work queue is closed');
  };
  return {
    enqueue: (definition, payload, options) => {
      assertOpen();
      return shared.queue.enqueue(definition, payload, options);
    },
    process: async (definition, options, handler) => {
      assertOpen();
      const inner = await shared.queue.process(definition, options, handler);
      const outer: Subscription = {
        unsubscribe: async () => {
          subscriptions.delete(outer);
          await inner.unsubscribe();
        },
      };
      subscriptions.add(outer);
      return outer;
    },
    isPending: (definition, id) => shared.queue.isPending(definition, id),
    isHealthy: async () => !closing && (await shared.queue.isHealthy()),
    close: () => {
      closing ??= (async () => {
        await Promise.all([...subscriptions].map((sub) => sub.unsubscribe()));
        if (--shared.handles > 0) return;
        sharedQueues.delete(prefix);
        await shared.queue.close();
      })();
      return closing;
    },
  };
}
