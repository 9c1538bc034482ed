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

  constructor(readonly prefix: string) {
    if (!/^[a-z][a-z0-9_-]*$/.test(prefix)) {
      throw new Error(`Bus prefix "${prefix}" must be one lower-case token (letters, digits, "_", "-")`);
    }
    this.events = `${prefix}.evt`;
    this.broadcasts = `${prefix}.bc`;
    this.eventStream = `${prefix.toUpperCase().replace(/-/g, '_')}_EVENTS`;
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
}

const isApiError = (error: unknown, code: number): boolean => error instanceof JetStreamApiError && error.code === code;

/** Creates the events stream, or brings an existing one to the configuration this code expects. */
export async function ensureEventStream(jsm: JetStreamManager, wire: BusWire, options: EventStreamOptions = {}) {
  const config: Partial<StreamConfig> & { name: string } = {
    name: wire.eventStream,
    subjects: [`${wire.events}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(options.maxAgeMs ?? 7 * 24 * 3600_000),
    duplicate_window: nanos(options.duplicateWindowMs ?? 120_000),
    num_replicas: options.replicas ?? 1,
  };
  try {
    await jsm.streams.info(config.name);
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
    try {
      return await jsm.streams.add(config);
    } catch (addError) {
      // Another replica created it in the meantime; fall through to the update.
      await jsm.streams.info(config.name).catch(() => Promise.reject(addError));
    }
  }
  const { name, storage: _fixedAtCreation, ...updatable } = config;
  return jsm.streams.update(name, updatable);
}

/** Deletes every stream of a prefix; for test runs, which each use their own prefix. */
export async function deleteBusStreams(servers: string | string[], prefix: string): Promise<void> {
  const nc = await connect({ servers, name: `cleanup-${prefix}` });
  try {
    const jsm = await jetstreamManager(nc);
    const wire = new BusWire(prefix);
    await jsm.streams.delete(wire.eventStream).catch((error: unknown) => {
      if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
    });
  } finally {
    await nc.close();
  }
}
