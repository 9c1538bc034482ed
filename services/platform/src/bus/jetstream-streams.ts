import {
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from '@nats-io/jetstream';
import { connect, nanos } from '@nats-io/transport-node';

/**
 * Wire layout of one deployment (`prefix`) on a shared NATS server:
 *   `${prefix}.evt.<subject>`  domain events, stored in the `${PREFIX}_EVENTS` stream
 *   `${prefix}.bc.<subject>`   broadcasts (core NATS, not stored)
 *   `${prefix}.<subject>`      request/reply (`rpc.…` subjects, core NATS)
 */
export class BusWire {
  readonly events: string;
  readonly broadcasts: string;
  readonly eventStream: string;
  /** Root of the dead letters: `${prefix}.dlq.<group>.<subject>`, in the `${PREFIX}_DEAD_LETTERS` stream. */
  readonly deadLetters: string;
  readonly deadLetterStream: string;

  constructor(readonly prefix: string) {
    if (!/^[a-z][a-z0-9_-]*$/.test(prefix)) {
      throw new Error(`Bus prefix "${prefix}" must be one lower-case token (letters, digits, "_", "-")`);
    }
    this.events = `${prefix}.evt`;
    this.broadcasts = `${prefix}.bc`;
    this.eventStream = `${prefix.toUpperCase().replace(/-/g, '_')}_EVENTS`;
    this.deadLetters = `${prefix}.dlq`;
    this.deadLetterStream = `${prefix.toUpperCase().replace(/-/g, '_')}_DEAD_LETTERS`;
  }

  event = (subject: string): string => `${this.events}.${subject}`;
  broadcast = (subject: string): string => `${this.broadcasts}.${subject}`;
  rpc = (subject: string): string => `${this.prefix}.${subject}`;

  /** Logical subject of a wire subject under `root` (`tl.evt.a.b.v1` → `a.b.v1`). */
  logical = (root: string, wireSubject: string): string => wireSubject.slice(root.length + 1);
}

export interface EventStreamOptions {
  /** How long events stay replayable for consumer groups created later; default 7 days. */
  maxAgeMs?: number;
  /** Re-sends of an event id within this window are dropped; default 2 minutes. */
  duplicateWindowMs?: number;
  /** Copies kept in a NATS cluster; 1 on a single server. */
  replicas?: number;
  /**
   * What to do when an existing stream's operator settings (max age, duplicate window, replicas)
   * differ from these: 'keep' them and log the difference once (default), or 'apply' these.
   */
  settings?: 'keep' | 'apply';
}

const isApiError = (error: unknown, code: number): boolean => error instanceof JetStreamApiError && error.code === code;

/** Settings an operator may tune on a running stream; this code never changes them silently. */
const OPERATOR_SETTINGS = ['max_age', 'duplicate_window', 'num_replicas'] as const;

interface StreamLogger {
  warn(context: object, message: string): void;
  info(context: object, message: string): void;
}

/**
 * Creates a stream with `config`, or checks an existing one. Its subjects are this code's
 * contract and are added when missing; retention and storage are fixed at creation. The operator
 * settings are applied on creation only: an existing stream keeps its own (an operator's 30-day
 * max age survives a restart), and a difference is logged, unless `settings` is 'apply'.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  config: Partial<StreamConfig> & { name: string; subjects: string[] },
  options: { settings?: 'keep' | 'apply'; logger?: StreamLogger } = {},
) {
  let existing: StreamConfig;
  try {
    existing = (await jsm.streams.info(config.name)).config;
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
    try {
      return await jsm.streams.add(config);
    } catch (addError) {
      // Another replica created it in the meantime; check that one.
      existing = (await jsm.streams.info(config.name).catch(() => Promise.reject(addError))).config;
    }
  }
  const differences = OPERATOR_SETTINGS.filter((key) => config[key] !== undefined && existing[key] !== config[key])
    .map((key) => ({ setting: key, stream: existing[key], configured: config[key] }));
  const missingSubjects = config.subjects.filter((subject) => !existing.subjects?.includes(subject));
  const apply = options.settings === 'apply' && differences.length > 0;
  if (differences.length > 0 && !apply) {
    options.logger?.warn({ stream: config.name, differences }, 'Stream keeps its own settings; set STREAM_SETTINGS=apply to apply the configured ones');
  }
  if (missingSubjects.length === 0 && !apply) return undefined;
  const update: Partial<StreamConfig> = { ...existing, subjects: [...(existing.subjects ?? []), ...missingSubjects] };
  if (apply) {
    for (const { setting } of differences) Object.assign(update, { [setting]: config[setting] });
    options.logger?.info({ stream: config.name, differences }, 'Applied the configured stream settings');
  }
  return jsm.streams.update(config.name, update);
}

/** Creates the events stream, or checks an existing one (see ensureStream). */
export function ensureEventStream(jsm: JetStreamManager, wire: BusWire, options: EventStreamOptions = {}, logger?: StreamLogger) {
  return ensureStream(jsm, {
    name: wire.eventStream,
    subjects: [`${wire.events}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(options.maxAgeMs ?? 7 * 24 * 3600_000),
    duplicate_window: nanos(options.duplicateWindowMs ?? 120_000),
    num_replicas: options.replicas ?? 1,
  }, { ...(options.settings ? { settings: options.settings } : {}), ...(logger ? { logger } : {}) });
}

/**
 * Creates the dead-letter stream, or checks an existing one: events given up by a consumer group
 * stay there (30 days unless the operator sets otherwise) until replayed or removed.
 */
export function ensureDeadLetterStream(jsm: JetStreamManager, wire: BusWire, options: EventStreamOptions = {}, logger?: StreamLogger) {
  return ensureStream(jsm, {
    name: wire.deadLetterStream,
    subjects: [`${wire.deadLetters}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(30 * 24 * 3600_000),
    num_replicas: options.replicas ?? 1,
  }, { ...(options.settings ? { settings: options.settings } : {}), ...(logger ? { logger } : {}) });
}

/** Deletes every stream of a prefix; for test runs, which each use their own prefix. */
export async function deleteBusStreams(servers: string | string[], prefix: string): Promise<void> {
  const nc = await connect({ servers, name: `cleanup-${prefix}` });
  try {
    const jsm = await jetstreamManager(nc);
    const wire = new BusWire(prefix);
    for (const stream of [wire.eventStream, wire.deadLetterStream]) {
      await jsm.streams.delete(stream).catch((error: unknown) => {
        if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
      });
    }
  } finally {
    await nc.close();
  }
}
