import type { DescMessage, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import {
  AckPolicy,
  type Consumer,
  type ConsumerConfig,
  type ConsumerMessages,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type MsgHdrs, type NatsConnection, nanos } from '@nats-io/transport-node';
import type { EventDefinition } from '@timeliner/proto';
import { type BusLogger, defaultBusLogger } from './bus-logger.js';
import type { Subscription } from './event-bus.port.js';
import { MetaHeader } from './jetstream-headers.js';
import { ensureStream } from './jetstream-streams.js';
import {
  assertJobId,
  type Delivery,
  encodeJob,
  type EnqueueOptions,
  type EnqueueResult,
  InFlight,
  type JobHandler,
  type JobMeta,
  type ProcessOptions,
  type ResolvedProcessOptions,
  resolveProcessOptions,
  runDelivery,
  WORK_DEFAULTS,
  type WorkQueue,
} from './work-queue.js';

/**
 * Wire layout of the work queues of one deployment (`prefix`):
 *   `${prefix}.work.<definition subject>.<job id>`  in the `${PREFIX}_WORK` stream (WorkQueue
 *   retention: a job is removed once acknowledged or terminated).
 * The job id in the subject lets `isPending` ask the stream for the last message on it.
 */
export class WorkWire {
  readonly root: string;
  readonly stream: string;

  constructor(readonly prefix: string) {
    if (!/^[a-z][a-z0-9_-]*$/.test(prefix)) {
      throw new Error(`Bus prefix "${prefix}" must be one lower-case token (letters, digits, "_", "-")`);
    }
    this.root = `${prefix}.work`;
    this.stream = `${prefix.toUpperCase().replace(/-/g, '_')}_WORK`;
  }

  job = (subject: string, id: string): string => `${this.root}.${subject}.${id}`;
  filter = (subject: string): string => `${this.root}.${subject}.*`;
  /** Durable consumer name of a definition: `work__media_job_process_v1`. */
  consumer = (subject: string): string => `work__${subject.replace(/\./g, '_')}`;
}

export interface WorkStreamOptions {
  /** Jobs nobody took are dropped after this long; default 7 days. */
  maxAgeMs?: number;
  duplicateWindowMs?: number;
  replicas?: number;
  /** An existing stream's own settings are kept unless this is 'apply' (see ensureStream). */
  settings?: 'keep' | 'apply';
}

export interface JetStreamWorkQueueOptions {
  servers: string | string[];
  prefix: string;
  name?: string;
  logger?: BusLogger;
  stream?: WorkStreamOptions;
}

const JOB_ID_HEADER = 'Tl-Job-Id';
const isApiError = (error: unknown, code: number): boolean => error instanceof JetStreamApiError && error.code === code;

export function ensureWorkStream(jsm: JetStreamManager, wire: WorkWire, options: WorkStreamOptions = {}, logger?: BusLogger) {
  return ensureStream(jsm, {
    name: wire.stream,
    subjects: [`${wire.root}.>`],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(options.maxAgeMs ?? 7 * 24 * 3600_000),
    duplicate_window: nanos(options.duplicateWindowMs ?? WORK_DEFAULTS.duplicateWindowMs),
    num_replicas: options.replicas ?? 1,
  }, { ...(options.settings ? { settings: options.settings } : {}), ...(logger ? { logger } : {}) });
}

/** Deletes the work stream of a prefix; for test runs, which each use their own prefix. */
export async function deleteWorkStream(servers: string | string[], prefix: string): Promise<void> {
  const nc = await connect({ servers, name: `cleanup-work-${prefix}` });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(new WorkWire(prefix).stream).catch((error: unknown) => {
      if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
    });
  } finally {
    await nc.close();
  }
}

/** The production work queue; its own NATS connection, beside the event bus's. */
export class JetStreamWorkQueue implements WorkQueue {
  private readonly workers = new Set<JetStreamWorker>();
  private closing?: Promise<void>;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly wire: WorkWire,
    private readonly logger: BusLogger,
  ) {}

  static async connect(options: JetStreamWorkQueueOptions): Promise<JetStreamWorkQueue> {
    const wire = new WorkWire(options.prefix);
    const nc = await connect({ servers: options.servers, name: options.name ? `${options.name}-work` : undefined, maxReconnectAttempts: -1 });
    try {
      const jsm = await jetstreamManager(nc);
      await ensureWorkStream(jsm, wire, options.stream, options.logger ?? defaultBusLogger);
      return new JetStreamWorkQueue(nc, jsm, jetstream(nc), wire, options.logger ?? defaultBusLogger);
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  async enqueue<Schema extends DescMessage>(
    definition: EventDefinition<Schema>,
    payload: MessageInitShape<Schema>,
    options: EnqueueOptions,
  ): Promise<EnqueueResult> {
    this.assertOpen();
    assertJobId(options.id);
    // The duplicate window covers quick repeats; this covers a job that waits longer than it.
    if (await this.isPending(definition, options.id)) return { duplicate: true };
    const meta: JobMeta = {
      id: options.id,
      type: definition.type,
      version: definition.version,
      enqueuedAt: new Date().toISOString(),
      ...(options.actorUserId ? { actorUserId: options.actorUserId } : {}),
      ...(options.requestId ? { requestId: options.requestId } : {}),
    };
    const ack = await this.js.publish(this.wire.job(definition.subject, options.id), encodeJob(definition, payload), {
      msgID: `${definition.subject}:${options.id}`,
      headers: jobHeaders(meta),
    });
    if (ack.duplicate) this.logger.debug({ queue: definition.subject, jobId: options.id }, 'Duplicate job dropped');
    return { duplicate: ack.duplicate };
  }

  async process<Schema extends DescMessage>(
    definition: EventDefinition<Schema>,
    options: ProcessOptions,
    handler: JobHandler<MessageShape<Schema>>,
  ): Promise<Subscription> {
    this.assertOpen();
    const resolved = resolveProcessOptions(options);
    const consumer = await this.ensureConsumer(definition.subject, resolved);
    const worker = new JetStreamWorker(
      consumer,
      resolved,
      (delivery) => runDelivery(definition, handler, delivery, resolved, this.logger),
      (sequence) => this.jsm.streams.deleteMessage(this.wire.stream, sequence, false),
      this.logger,
      definition.subject,
    );
    this.workers.add(worker);
    worker.start();
    return {
      unsubscribe: async () => {
        this.workers.delete(worker);
        await worker.stop();
      },
    };
  }

  async isPending(definition: EventDefinition, id: string): Promise<boolean> {
    assertJobId(id);
    try {
      const stored = await this.jsm.streams.getMessage(this.wire.stream, { last_by_subj: this.wire.job(definition.subject, id) });
      return stored !== null;
    } catch (error) {
      if (isApiError(error, JetStreamApiCodes.NoMessageFound)) return false;
      throw error;
    }
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
    this.closing ??= (async () => {
      await Promise.all([...this.workers].map((worker) => worker.stop()));
      this.workers.clear();
      await this.nc.drain().catch((error: unknown) => this.logger.warn({ err: error }, 'NATS drain failed'));
    })();
    return this.closing;
  }

  private async ensureConsumer(subject: string, options: ResolvedProcessOptions): Promise<Consumer> {
    const name = this.wire.consumer(subject);
    const filter = this.wire.filter(subject);
    const ackWait = nanos(options.ackExtendMs * 3);
    // One delivery more than the handler's attempts: if a worker dies during the last attempt,
    // the extra delivery runs the failure hook (see runDelivery).
    const maxDeliver = options.maxDeliver + 1;
    const config: Partial<ConsumerConfig> = {
      durable_name: name,
      filter_subject: filter,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      max_deliver: maxDeliver,
      ack_wait: ackWait,
      max_ack_pending: 10_000,
    };
    try {
      const { config: current } = await this.jsm.consumers.info(this.wire.stream, name);
      if (current.max_deliver !== maxDeliver || current.ack_wait !== ackWait) {
        await this.jsm.consumers.update(this.wire.stream, name, { max_deliver: maxDeliver, ack_wait: ackWait });
      }
    } catch (error) {
      if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
      // Workers starting together may race; creating an identical durable is idempotent.
      await this.jsm.consumers.add(this.wire.stream, config);
    }
    return this.js.consumers.get(this.wire.stream, name);
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('Work queue is closed');
  }
}

/**
 * `concurrency` loops, each pulling ONE job only when it is free to run it: a job never waits in
 * a local buffer while its ack wait runs out, and idle replicas get the next job.
 */
class JetStreamWorker {
  private stopping = false;
  private readonly abort = new AbortController();
  private readonly fetches = new Set<ConsumerMessages>();
  private readonly loops = new InFlight();

  constructor(
    private readonly consumer: Consumer,
    private readonly options: ResolvedProcessOptions,
    private readonly run: (delivery: Delivery) => ReturnType<typeof runDelivery>,
    private readonly remove: (sequence: number) => Promise<unknown>,
    private readonly logger: BusLogger,
    private readonly queue: string,
  ) {}

  start(): void {
    for (let i = 0; i < this.options.concurrency; i++) void this.loops.track(this.loop());
  }

  async stop(): Promise<void> {
    if (this.stopping) return this.loops.settle();
    this.stopping = true;
    this.abort.abort();
    await Promise.all([...this.fetches].map((fetch) => fetch.close().catch(() => undefined)));
    await this.loops.settle();
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      try {
        const fetch = await this.consumer.fetch({ max_messages: 1, expires: 5_000 });
        this.fetches.add(fetch);
        if (this.stopping) void fetch.close();
        // The job runs after the pull request is closed: a fulfilled pull gets no more idle
        // heartbeats from the server, so a job held inside the iteration for longer than two
        // heartbeats allow (a 12 s job did) would end it with "heartbeats missed" although nothing failed.
        let taken: JsMsg | undefined;
        try {
          for await (const msg of fetch) {
            taken = msg;
            break;
          }
        } finally {
          this.fetches.delete(fetch);
          await fetch.close().catch(() => undefined);
        }
        if (taken) {
          if (this.stopping) taken.nak();
          else await this.handle(taken);
        }
        failures = 0;
      } catch (error) {
        if (this.stopping) return;
        failures++;
        this.logger.error({ queue: this.queue, err: error }, 'Work queue fetch failed');
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 200 * 2 ** failures)));
      }
    }
  }

  private async handle(msg: JsMsg): Promise<void> {
    const id = msg.headers?.get(JOB_ID_HEADER) || msg.subject.slice(msg.subject.lastIndexOf('.') + 1);
    const meta = jobMeta(msg.headers, id);
    const working = () => {
      try {
        msg.working();
      } catch (error) {
        // The connection is closed; the job will be redelivered once its lease runs out.
        this.logger.warn({ queue: this.queue, jobId: id, err: error }, 'Could not extend a job lease');
      }
    };
    const keepAlive = setInterval(working, this.options.ackExtendMs);
    try {
      const outcome = await this.run({
        id,
        data: msg.data,
        meta,
        attempt: msg.info.deliveryCount,
        signal: this.abort.signal,
        working,
      });
      switch (outcome.kind) {
        case 'done':
          await msg.ackAck().catch((error: unknown) => this.logger.warn({ queue: this.queue, jobId: id, err: error }, 'Job ack not confirmed'));
          break;
        case 'retry':
          msg.nak(outcome.delayMs);
          break;
        case 'aborted':
          msg.nak();
          break;
        case 'give-up':
          // `term` tells JetStream (and its advisories) the job was given up; some servers keep
          // a terminated message in a work-queue stream, so it is also deleted.
          msg.term('given up');
          await this.remove(msg.info.streamSequence).catch((error: unknown) =>
            this.logger.warn({ queue: this.queue, jobId: id, err: error }, 'Could not delete a given-up job'),
          );
          break;
      }
    } catch (error) {
      this.logger.error({ queue: this.queue, jobId: id, err: error }, 'Could not settle a job');
    } finally {
      clearInterval(keepAlive);
    }
  }
}

function jobHeaders(meta: JobMeta): MsgHdrs {
  const headers = natsHeaders();
  const clean = (value: string) => value.replace(/[^\x20-\x7e]/g, '').slice(0, 256);
  headers.set(JOB_ID_HEADER, meta.id);
  headers.set(MetaHeader.type, meta.type);
  headers.set(MetaHeader.version, String(meta.version));
  headers.set(MetaHeader.occurredAt, meta.enqueuedAt);
  if (meta.actorUserId) headers.set(MetaHeader.actorUserId, clean(meta.actorUserId));
  if (meta.requestId) headers.set(MetaHeader.requestId, clean(meta.requestId));
  return headers;
}

function jobMeta(headers: MsgHdrs | undefined, id: string): JobMeta {
  const meta: JobMeta = {
    id,
    type: headers?.get(MetaHeader.type) ?? '',
    version: Number(headers?.get(MetaHeader.version) ?? 0),
    enqueuedAt: headers?.get(MetaHeader.occurredAt) ?? '',
  };
  const actor = headers?.get(MetaHeader.actorUserId);
  const requestId = headers?.get(MetaHeader.requestId);
  if (actor) meta.actorUserId = actor;
  if (requestId) meta.requestId = requestId;
  return meta;
}
