import { create, type DescMessage, fromBinary, type MessageInitShape, type MessageShape, toBinary } from '@bufbuild/protobuf';
import type { EventDefinition } from '@timeliner/proto';
import { runWithContext } from '../logging/request-context.js';
import type { BusLogger } from './bus-logger.js';
import { type Subscription, UnprocessableMessageError } from './event-bus.port.js';
import { assertName } from './subjects.js';

/**
 * Work queues: jobs (video processing, export) that must each be done by exactly ONE worker of
 * all the replicas, however many processes consume the queue. Unlike domain events (published by
 * the outbox, handled once per consumer group) a job has a single consumer: the workers of its
 * definition.
 *
 * Adapters:
 * - JetStream (`work-queue-jetstream.ts`): a `${PREFIX}_WORK` stream with WorkQueue retention on
 *   `${prefix}.work.>`; one durable pull consumer per job definition, shared by every worker.
 *   A job lives in the stream until a worker acknowledges it, so it survives restarts of NATS
 *   (file storage), of the producer and of every worker.
 * - in-process (`work-queue-in-process.ts`): single-process mode. Same semantics while the
 *   process runs, but the queue lives in memory and survives NOTHING across a restart; the owner
 *   of the work must re-queue from its own durable state on start (the media worker re-queues
 *   media rows left in `processing` whose job is not pending, see `isPending`).
 *
 * Semantics shared by both (one contract test suite runs against both):
 * - `enqueue` is de-duplicated by the job id: an id is dropped while a job with that id is pending
 *   (queued, running or waiting for a retry), and for the duplicate window (2 minutes) after it
 *   was enqueued. Ids are single tokens (letters, digits, `_`, `-`): a UUID, `export-<uuid>`.
 * - `process` hands each job to one worker; the job is acknowledged when `run` resolves. A job
 *   whose `run` throws is retried with back-off until `maxDeliver` attempts, then `failed` is
 *   called (once) and the job is removed. Throwing `UnprocessableMessageError` skips the
 *   retries: `failed` is called at once.
 * - A running job keeps its lease: the adapter signals "still working" every `ackExtendMs`, so a
 *   job that takes an hour is not handed to a second worker. A worker that dies (no signal for
 *   3 × `ackExtendMs`) loses its job to another worker; that counts as an attempt. If a worker
 *   dies during the last attempt, the next delivery only calls `failed` and removes the job.
 * - `close()` stops taking jobs, aborts the running ones (`job.signal`, e.g. kill ffmpeg) and
 *   puts them back at once for another worker.
 */
export interface WorkQueue {
  enqueue<Schema extends DescMessage>(
    definition: EventDefinition<Schema>,
    payload: MessageInitShape<Schema>,
    options: EnqueueOptions,
  ): Promise<EnqueueResult>;
  process<Schema extends DescMessage>(
    definition: EventDefinition<Schema>,
    options: ProcessOptions,
    handler: JobHandler<MessageShape<Schema>>,
  ): Promise<Subscription>;
  /** True while a job with this id is queued, running or waiting for a retry. */
  isPending(definition: EventDefinition, id: string): Promise<boolean>;
  isHealthy(): Promise<boolean>;
  /** Stops processing (running jobs are aborted and put back), then disconnects. */
  close(): Promise<void>;
}

export interface EnqueueOptions {
  /** De-duplication key, e.g. the media id. */
  id: string;
  actorUserId?: string;
  requestId?: string;
}

export interface EnqueueResult {
  /** The id was already pending or recently enqueued; nothing was added. */
  duplicate: boolean;
}

export interface ProcessOptions {
  /** Jobs this process runs at once; default 1. */
  concurrency?: number;
  /** Attempts before a job is given up; default 3. */
  maxDeliver?: number;
  /** Wait before a retry, one entry per failed attempt (the last repeats); default [5 s, 30 s]. */
  backoffMs?: number[];
  /**
   * How often a running job's lease is extended; a job whose worker stops extending it for
   * 3 × this long is handed to another worker. Default 10 s.
   */
  ackExtendMs?: number;
}

export interface JobMeta {
  id: string;
  type: string;
  version: number;
  enqueuedAt: string;
  actorUserId?: string;
  requestId?: string;
}

export interface Job<Payload> {
  id: string;
  payload: Payload;
  meta: JobMeta;
  /** 1-based attempt number of this delivery. */
  attempt: number;
  maxDeliver: number;
  /** Aborted when the worker shuts down: stop child processes, the job is put back. */
  signal: AbortSignal;
  /** Extends the lease now (the adapter also does it on a timer). */
  working(): void;
}

export interface JobHandler<Payload> {
  /** Resolving acknowledges the job; throwing retries it (bounded). */
  run(job: Job<Payload>): Promise<void>;
  /**
   * The job is given up: the last attempt failed, the handler threw UnprocessableMessageError, or a
   * worker died during the last attempt. Mark the work failed here. Throwing retries the hook
   * once more on another delivery.
   */
  failed?(job: Job<Payload>, error: unknown): Promise<void>;
}

export const WORK_DEFAULTS = {
  concurrency: 1,
  maxDeliver: 3,
  backoffMs: [5_000, 30_000] as readonly number[],
  ackExtendMs: 10_000,
  duplicateWindowMs: 120_000,
};

export interface ResolvedProcessOptions {
  concurrency: number;
  maxDeliver: number;
  backoffMs: readonly number[];
  ackExtendMs: number;
}

export function resolveProcessOptions(options: ProcessOptions): ResolvedProcessOptions {
  const resolved = {
    concurrency: options.concurrency ?? WORK_DEFAULTS.concurrency,
    maxDeliver: options.maxDeliver ?? WORK_DEFAULTS.maxDeliver,
    backoffMs: options.backoffMs?.length ? options.backoffMs : WORK_DEFAULTS.backoffMs,
    ackExtendMs: options.ackExtendMs ?? WORK_DEFAULTS.ackExtendMs,
  };
  if (!Number.isInteger(resolved.concurrency) || resolved.concurrency < 1) throw new Error(`concurrency must be ≥ 1, got ${resolved.concurrency}`);
  if (!Number.isInteger(resolved.maxDeliver) || resolved.maxDeliver < 1) throw new Error(`maxDeliver must be ≥ 1, got ${resolved.maxDeliver}`);
  if (!(resolved.ackExtendMs >= 100)) throw new Error(`ackExtendMs must be ≥ 100, got ${resolved.ackExtendMs}`);
  return resolved;
}

export function retryDelay(options: ResolvedProcessOptions, attempt: number): number {
  return options.backoffMs[Math.min(attempt, options.backoffMs.length) - 1] ?? 0;
}

export function assertJobId(id: string): void {
  assertName('Job id', id);
}

export function encodeJob<Schema extends DescMessage>(definition: EventDefinition<Schema>, payload: MessageInitShape<Schema>): Uint8Array {
  return toBinary(definition.schema, create(definition.schema, payload));
}

/** One delivery of a raw job, as an adapter sees it. */
export interface Delivery {
  id: string;
  data: Uint8Array;
  meta: JobMeta;
  attempt: number;
  signal: AbortSignal;
  working(): void;
}

export type Outcome =
  | { kind: 'done' }
  /** Try again after `delayMs`. */
  | { kind: 'retry'; delayMs: number }
  /** Remove the job for good. */
  | { kind: 'give-up' }
  /** The worker is shutting down: put the job back at once. */
  | { kind: 'aborted' };

/**
 * Runs one delivery through a handler and says what the adapter must do with the job. Shared by
 * the adapters so both apply the same rules.
 */
export async function runDelivery<Schema extends DescMessage>(
  definition: EventDefinition<Schema>,
  handler: JobHandler<MessageShape<Schema>>,
  delivery: Delivery,
  options: ResolvedProcessOptions,
  logger: BusLogger,
): Promise<Outcome> {
  const context = { queue: definition.subject, jobId: delivery.id, attempt: delivery.attempt };
  let payload: MessageShape<Schema>;
  try {
    payload = fromBinary(definition.schema, delivery.data);
  } catch (error) {
    logger.error({ ...context, err: error }, 'Job payload does not decode; given up');
    return { kind: 'give-up' };
  }
  const job: Job<MessageShape<Schema>> = {
    id: delivery.id,
    payload,
    meta: delivery.meta,
    attempt: delivery.attempt,
    maxDeliver: options.maxDeliver,
    signal: delivery.signal,
    working: delivery.working,
  };
  const requestContext = {
    requestId: delivery.meta.requestId ?? `job-${delivery.id}`,
    ...(delivery.meta.actorUserId ? { userId: delivery.meta.actorUserId } : {}),
  };
  return runWithContext(requestContext, async (): Promise<Outcome> => {
    if (delivery.attempt > options.maxDeliver) {
      // The worker of the last attempt died holding the job: only the failure hook is left to run.
      logger.error(context, 'Job was still unfinished after its last attempt; given up');
      return giveUp(job, new Error('The worker stopped during the last attempt'));
    }
    try {
      await handler.run(job);
      return { kind: 'done' };
    } catch (error) {
      if (delivery.signal.aborted) {
        logger.warn({ ...context, err: error }, 'Job aborted by shutdown; put back');
        return { kind: 'aborted' };
      }
      if (error instanceof UnprocessableMessageError || delivery.attempt >= options.maxDeliver) {
        logger.error({ ...context, err: error }, 'Job failed for good; given up');
        return giveUp(job, error);
      }
      const delayMs = retryDelay(options, delivery.attempt);
      logger.warn({ ...context, err: error, retryInMs: delayMs }, 'Job failed; will retry');
      return { kind: 'retry', delayMs };
    }
  });

  async function giveUp(job: Job<MessageShape<Schema>>, cause: unknown): Promise<Outcome> {
    if (!handler.failed) return { kind: 'give-up' };
    try {
      await handler.failed(job, cause);
      return { kind: 'give-up' };
    } catch (error) {
      // One more delivery is allowed beyond maxDeliver for exactly this: run the hook again.
      if (job.attempt <= options.maxDeliver) {
        logger.error({ ...context, err: error }, 'Job failure hook failed; will retry the hook');
        return { kind: 'retry', delayMs: retryDelay(options, job.attempt) };
      }
      logger.error({ ...context, err: error }, 'Job failure hook failed again; job dropped');
      return { kind: 'give-up' };
    }
  }
}

/** Lets `close()` wait for a set of promises while more may be added. */
export class InFlight {
  private readonly work = new Set<Promise<unknown>>();

  track<T>(promise: Promise<T>): Promise<T> {
    this.work.add(promise);
    const forget = () => void this.work.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  async settle(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }
}
