import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { create, type DescMessage, fromBinary, type MessageInitShape, type MessageShape, toBinary } from '@bufbuild/protobuf';
import { createEventBus, createLogger, type EventBus, FsObjectStorage, type ObjectStorage, serveRpc, signIdentity, type Subscription, type WorkQueue } from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, testBusPrefix, testNatsUrl, type TestDatabase } from '@timeliner/platform/testing';
import { CollaboratorRole, type EventDefinition, TimelinesRpc } from '@timeliner/proto';
import { RecordingExportQueue, RecordingProcessingQueue, type RunningMediaService, startMediaService, mediaSchema, WorkQueueExports } from '../src/index.js';
import type { TusUploadOptions } from '../src/uploads/tus-uploads.js';

/** Caller as the gateway would present it. */
export interface As {
  userId?: string;
  sessionId?: string;
}

export type Who = 'anonymous' | 'stranger' | 'viewer' | 'editor' | 'owner';
export const CALLERS: readonly Who[] = ['anonymous', 'stranger', 'viewer', 'editor', 'owner'];

/**
 * The people and timelines of the fixed access policy the stand-in timelines service encodes:
 * on both timelines the owner, an editor and a viewer have their roles; the public one (published)
 * everyone sees, the private one only they do; the missing one does not exist. The taken-out one
 * (public, the moderators took it out) its owner sees, marked, and the moderator too when reading
 * it in context, read-only (the timelines service asks the social service who is staff).
 */
export interface World {
  owner: string;
  editor: string;
  viewer: string;
  stranger: string;
  publicTimeline: string;
  privateTimeline: string;
  missingTimeline: string;
  takenOutTimeline: string;
  moderator: string;
}

export type TimelinesMode = 'answer' | 'fail';

export interface MediaHarness {
  service: RunningMediaService;
  db: TestDatabase;
  bus: EventBus;
  prefix: string;
  storage: ObjectStorage;
  storageDir: string;
  secret: string;
  world: World;
  jobs: RecordingProcessingQueue;
  /** Export jobs, when no work queue was given. */
  exportJobs: RecordingExportQueue;
  asked: Array<{ timelineId: string; userId: string }>;
  setTimelines(mode: TimelinesMode): void;
  as(who: Who): As;
  call(method: 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options', path: string, as?: As): request.Test;
  /** Identity headers for a request made by another client (tus-js-client). */
  sign(method: string, path: string, as: As): Record<string, string>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  publish<S extends DescMessage>(definition: EventDefinition<S>, payload: MessageInitShape<S>, id?: string): Promise<string>;
  /** Events this service wrote to its outbox, decoded, in order. */
  events<S extends DescMessage>(definition: EventDefinition<S>): Promise<Array<MessageShape<S>>>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  nats?: boolean;
  storage?: ObjectStorage;
  uploads?: TusUploadOptions;
  /** Export jobs go here (a worker consumes them); else they are recorded and exports answer 202. */
  workQueue?: WorkQueue;
  /** Processing jobs go here, with the service's turns between people (a worker consumes them); else they are recorded in `jobs`. */
  processingQueue?: WorkQueue;
  /** How long an export request waits for the worker; default 300 ms. */
  exportWaitMs?: number;
  /** New exports per person per hour and day (the service's defaults otherwise). */
  exportLimits?: { perHour: number; perDay: number };
  /** Storage per person (the service's default, 10 GB, otherwise). */
  storageQuotaBytes?: number;
}

export const waitFor = async (check: () => Promise<boolean> | boolean, ms = 5_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

export function newWorld(): World {
  return {
    owner: randomUUID(),
    editor: randomUUID(),
    viewer: randomUUID(),
    stranger: randomUUID(),
    publicTimeline: randomUUID(),
    privateTimeline: randomUUID(),
    missingTimeline: randomUUID(),
    takenOutTimeline: randomUUID(),
    moderator: randomUUID(),
  };
}

/** The stand-in timelines service's answer for a world. */
export function policy(world: World, timelineId: string, userId: string, inContext = false) {
  if (timelineId === world.takenOutTimeline) {
    const owner = userId === world.owner;
    const canView = owner || (inContext && userId === world.moderator);
    return {
      canView,
      canEdit: owner,
      role: owner ? CollaboratorRole.OWNER : CollaboratorRole.UNSPECIFIED,
      ownerId: canView ? world.owner : '',
      removedByModerators: canView,
    };
  }
  const exists = timelineId === world.publicTimeline || timelineId === world.privateTimeline;
  const role = !exists ? CollaboratorRole.UNSPECIFIED
    : userId === world.owner ? CollaboratorRole.OWNER
      : userId === world.editor ? CollaboratorRole.EDITOR
        : userId === world.viewer ? CollaboratorRole.VIEWER
          : CollaboratorRole.UNSPECIFIED;
  const canView = exists && (timelineId === world.publicTimeline || role !== CollaboratorRole.UNSPECIFIED);
  return {
    canView,
    canEdit: canView && (role === CollaboratorRole.OWNER || role === CollaboratorRole.EDITOR),
    role: canView ? role : CollaboratorRole.UNSPECIFIED,
    ownerId: canView ? world.owner : '',
  };
}

/** Serves TimelinesRpc.CheckAccess on `bus` by the world's policy. */
export function serveWorld(bus: EventBus, world: World, hooks: { asked?: MediaHarness['asked']; mode?: () => TimelinesMode } = {}): Promise<Subscription> {
  return serveRpc(bus, TimelinesRpc.CheckAccess, 'timelines', async ({ timelineId, userId, inContext }) => {
    hooks.asked?.push({ timelineId, userId });
    if (hooks.mode?.() === 'fail') throw new Error('timelines database unavailable');
    return policy(world, timelineId, userId, inContext);
  });
}

export async function startHarness(label: string, options: HarnessOptions = {}): Promise<MediaHarness> {
  const db = await createTestDatabase(label, { schemas: [mediaSchema] });
  const logger = createLogger('media-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const prefix = testBusPrefix(label);
  const bus = await createEventBus({ natsUrl: options.nats ? testNatsUrl() : undefined, prefix, logger });
  const secret = randomBytes(32).toString('hex');
  const storageDir = await mkdtemp(join(tmpdir(), `${label}-storage-`));
  const storage = options.storage ?? new FsObjectStorage({ root: storageDir });
  if (storage instanceof FsObjectStorage) await storage.init();
  const world = newWorld();
  const asked: MediaHarness['asked'] = [];
  let mode: TimelinesMode = 'answer';
  const responder = await serveWorld(bus, world, { asked, mode: () => mode });
  const jobs = new RecordingProcessingQueue();
  const exportJobs = new RecordingExportQueue();

  const service = await startMediaService({
    databaseUrl: db.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1', storage,
    ...(options.processingQueue ? { workQueue: options.processingQueue } : { processing: jobs }),
    timelinesTimeoutMs: 1_000, sweepIntervalMs: 0, ...(options.uploads ? { uploads: options.uploads } : {}),
    exportQueue: options.workQueue ? new WorkQueueExports(options.workQueue) : exportJobs,
    exports: { waitMs: options.exportWaitMs ?? 300, pollMs: 50, ...(options.exportLimits ? { limits: options.exportLimits } : {}) },
    ...(options.storageQuotaBytes !== undefined ? { storageQuotaBytes: options.storageQuotaBytes } : {}),
  });
  const agent = request(service.url);
  const dataSource = service.dataSource;

  const sign = (method: string, path: string, as: As) => {
    const requestId = `test-${randomBytes(6).toString('hex')}`;
    const sessionId = as.userId ? (as.sessionId ?? randomUUID()) : undefined;
    return { ...signIdentity(secret, { userId: as.userId, sessionId, clientIp: '198.51.100.1' }, { requestId, method: method.toUpperCase(), url: path }), 'x-request-id': requestId };
  };

  const h: MediaHarness = {
    service,
    db,
    bus,
    prefix,
    storage,
    storageDir,
    secret,
    world,
    jobs,
    exportJobs,
    asked,
    setTimelines(next) {
      mode = next;
    },
    as: (who) => (who === 'anonymous' ? {} : { userId: world[who] }),
    call(method, path, as = {}) {
      return agent[method](path).set(sign(method, path, as));
    },
    sign,
    query: (sql, params) => dataSource.query(sql, params),
    async publish(definition, payload, id = randomUUID()) {
      await bus.publish({
        subject: definition.subject,
        meta: { id, type: definition.type, version: definition.version, occurredAt: new Date().toISOString() },
        data: toBinary(definition.schema, create(definition.schema, payload)),
      });
      return id;
    },
    async events(definition) {
      const rows: Array<{ payload: Buffer }> = await dataSource.query('SELECT payload FROM outbox WHERE subject = $1 ORDER BY position', [definition.subject]);
      return rows.map((r) => fromBinary(definition.schema, r.payload));
    },
    async close() {
      await service.close();
      await responder.unsubscribe();
      await bus.close();
      await db.drop();
      await rm(storageDir, { recursive: true, force: true });
      if (options.nats) await deleteBusStreams(testNatsUrl(), prefix);
    },
  };
  return h;
}

/** A valid MP4 start (an `ftyp` box) followed by `size - 32` bytes of seeded pseudo-random data. */
export function mp4Bytes(size: number, seed = 1): Buffer {
  const out = Buffer.alloc(size);
  mp4Header().copy(out, 0, 0, Math.min(32, size));
  let x = seed >>> 0 || 1;
  for (let i = 32; i + 4 <= size; i += 4) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    out.writeUInt32LE(x, i);
  }
  return out;
}

/** 32 bytes: `ftyp` box, brand isom. */
export function mp4Header(): Buffer {
  const head = Buffer.alloc(32);
  head.writeUInt32BE(32, 0);
  head.write('ftypisom', 4, 'latin1');
  head.writeUInt32BE(0x200, 12);
  head.write('isomiso2avc1mp41', 16, 'latin1');
  return head;
}

export const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);

/** tus Upload-Metadata for a timeline upload. */
export const tusMetadata = (fields: Record<string, string>): string =>
  Object.entries(fields).map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`).join(',');

/** supertest parser that keeps a binary body as one Buffer. */
export function binary(res: unknown, cb: (err: Error | null, body: unknown) => void): void {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => cb(null, Buffer.concat(chunks)));
}

let png: Promise<Buffer> | undefined;
/** A real 800 x 600 PNG (a red and a blue half), made once: what a person picks as a profile picture. */
export function avatarPng(): Promise<Buffer> {
  png ??= import('sharp').then(({ default: sharp }) =>
    sharp({ create: { width: 800, height: 600, channels: 3, background: '#ff0000' } })
      .composite([{ input: { create: { width: 400, height: 600, channels: 3, background: '#0000ff' } }, left: 400, top: 0 }])
      .png()
      .toBuffer(),
  );
  return png;
}
