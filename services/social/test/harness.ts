import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { create, type DescMessage, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import { createEventBus, createLogger, type EventBus, serveRpc, signIdentity, type Subscription } from '@timeliner/platform';
import { createTestDatabase, testBusPrefix, testNatsUrl, type TestDatabase } from '@timeliner/platform/testing';
import { AuthEvents, CollaboratorRole, type EventDefinition, MediaEvents, MediaType, TimelinesRpc, Visibility } from '@timeliner/proto';
import { startSocialService, socialSchema } from '../src/index.js';
import type { RunningService } from '@timeliner/platform';

/** Caller as the gateway would present it. */
export interface As {
  userId?: string;
  sessionId?: string;
}

/** The people and timelines of the fixed access policy the test's timelines responder encodes. */
export interface World {
  owner: string;
  collaborator: string;
  stranger: string;
  /** Published and public: everyone sees it; the collaborator is a viewer on it. */
  publicTimeline: string;
  /** Private: only the owner and the collaborator (an editor) see it. */
  privateTimeline: string;
  /** Does not exist: nobody sees it. */
  missingTimeline: string;
}

/** How the stand-in timelines service behaves: answers by the policy, throws, or never answers. */
export type TimelinesMode = 'answer' | 'fail' | 'hang';

export interface SocialHarness {
  service: RunningService;
  db: TestDatabase;
  bus: EventBus;
  prefix: string;
  world: World;
  /** Every access question the service asked, in order. */
  asked: Array<{ timelineId: string; userId: string }>;
  setTimelines(mode: TimelinesMode): void;
  /** Removes the timelines responder (no service answers at all) or puts it back. */
  stopTimelines(): Promise<void>;
  startTimelines(): Promise<void>;
  /** Makes a timeline visible to everyone or to nobody, overriding the policy. */
  override(timelineId: string, canView: boolean | undefined): void;
  call(method: 'get' | 'post' | 'put' | 'delete' | 'patch', path: string, as?: As): request.Test;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Publishes a domain event as its producer's outbox relay would; returns the event id. */
  publish<Schema extends DescMessage>(definition: EventDefinition<Schema>, payload: MessageInitShape<Schema>, id?: string): Promise<string>;
  /** Announces a person as the auth service would, and waits until the read model has them. */
  register(userId: string, username: string, displayName: string): Promise<void>;
  /** Announces an uploaded video as the media service would, and waits until the read model has it. */
  addVideo(timelineId: string, videoId?: string): Promise<string>;
  close(): Promise<void>;
}

export const waitFor = async (check: () => Promise<boolean> | boolean, ms = 5_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

export const TIMELINES_TIMEOUT_MS = 300;

export async function startHarness(label: string, options: { nats?: boolean } = {}): Promise<SocialHarness> {
  const db = await createTestDatabase(label, { schemas: [socialSchema] });
  const logger = createLogger('social-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const prefix = testBusPrefix(label);
  const bus = await createEventBus({ natsUrl: options.nats ? testNatsUrl() : undefined, prefix, logger });
  const secret = randomBytes(32).toString('hex');
  const world: World = {
    owner: randomUUID(),
    collaborator: randomUUID(),
    stranger: randomUUID(),
    publicTimeline: randomUUID(),
    privateTimeline: randomUUID(),
    missingTimeline: randomUUID(),
  };

  const asked: SocialHarness['asked'] = [];
  const overrides = new Map<string, boolean>();
  let mode: TimelinesMode = 'answer';
  /**
   * A timeline the desk took out (social's own decision, which the real timelines service copies):
   * seen by its owner; by staff only when they read it in context, read-only; by nobody else.
   */
  const takenOut = { hidden: async (_timelineId: string) => false, staff: async (_userId: string) => false };
  const policy = (timelineId: string, userId: string, out?: { staffInContext: boolean }) => {
    const role =
      userId === world.owner && (timelineId === world.publicTimeline || timelineId === world.privateTimeline) ? CollaboratorRole.OWNER
        : userId === world.collaborator && timelineId === world.publicTimeline ? CollaboratorRole.VIEWER
          : userId === world.collaborator && timelineId === world.privateTimeline ? CollaboratorRole.EDITOR
            : CollaboratorRole.UNSPECIFIED;
    const exists = timelineId === world.publicTimeline || timelineId === world.privateTimeline;
    const seen = overrides.get(timelineId) ?? (exists && (timelineId === world.publicTimeline || role !== CollaboratorRole.UNSPECIFIED));
    const owner = role === CollaboratorRole.OWNER;
    const canView = out ? seen && (owner || (out.staffInContext && timelineId === world.publicTimeline)) : seen;
    return {
      canView,
      canEdit: canView && (owner || (role === CollaboratorRole.EDITOR && !out)),
      role: canView ? role : CollaboratorRole.UNSPECIFIED,
      ownerId: canView ? world.owner : '',
      ...(canView ? { visibility: timelineId === world.publicTimeline ? Visibility.PUBLIC : Visibility.PRIVATE, title: timelineId === world.publicTimeline ? 'Public' : 'Private' } : {}),
      removedByModerators: canView && out !== undefined,
    };
  };
  let responder: Subscription | undefined;
  const startTimelines = async () => {
    responder = await serveRpc(bus, TimelinesRpc.CheckAccess, 'timelines', async ({ timelineId, userId, inContext }) => {
      asked.push({ timelineId, userId });
      if (mode === 'fail') throw new Error('timelines database unavailable');
      if (mode === 'hang') await new Promise((r) => setTimeout(r, TIMELINES_TIMEOUT_MS * 4));
      const out = (await takenOut.hidden(timelineId)) ? { staffInContext: inContext && userId !== '' && (await takenOut.staff(userId)) } : undefined;
      return policy(timelineId, userId, out);
    });
  };
  await startTimelines();

  const service = await startSocialService({ databaseUrl: db.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1', timelinesTimeoutMs: TIMELINES_TIMEOUT_MS });
  const agent = request(service.url);
  const dataSource = async () => service.app.get((await import('typeorm')).DataSource);
  takenOut.hidden = async (timelineId) =>
    (await (await dataSource()).query(`SELECT 1 FROM moderated_content WHERE content_type = 'timeline' AND content_id = $1 AND hidden`, [timelineId])).length > 0;
  takenOut.staff = async (userId) => (await (await dataSource()).query('SELECT 1 FROM staff_roles WHERE user_id = $1', [userId])).length > 0;

  const h: SocialHarness = {
    service,
    db,
    bus,
    prefix,
    world,
    asked,
    setTimelines(next) {
      mode = next;
    },
    async stopTimelines() {
      await responder?.unsubscribe();
      responder = undefined;
    },
    startTimelines,
    override(timelineId, canView) {
      if (canView === undefined) overrides.delete(timelineId);
      else overrides.set(timelineId, canView);
    },
    call(method, path, as = {}) {
      const requestId = `test-${randomBytes(6).toString('hex')}`;
      const sessionId = as.userId ? (as.sessionId ?? randomUUID()) : undefined;
      const headers = signIdentity(secret, { userId: as.userId, sessionId, clientIp: '198.51.100.1' }, { requestId, method: method.toUpperCase(), url: path });
      return agent[method](path).set(headers).set('x-request-id', requestId);
    },
    async query(sql, params) {
      return (await dataSource()).query(sql, params);
    },
    async publish(definition, payload, id = randomUUID()) {
      await bus.publish({
        subject: definition.subject,
        meta: { id, type: definition.type, version: definition.version, occurredAt: new Date().toISOString() },
        data: toBinary(definition.schema, create(definition.schema, payload)),
      });
      return id;
    },
    async register(userId, username, displayName) {
      await h.publish(AuthEvents.UserRegistered, { userId, username, displayName, email: `${username}@example.com` });
      await waitFor(async () => (await h.query('SELECT 1 FROM users WHERE id = $1', [userId])).length === 1);
    },
    async addVideo(timelineId, videoId = randomUUID()) {
      await h.publish(MediaEvents.UploadCompleted, { mediaId: videoId, timelineId, uploaderId: world.owner, mediaType: MediaType.VIDEO, originalName: 'clip.mp4', mimeType: 'video/mp4', size: 1024n });
      await waitFor(async () => (await h.query('SELECT 1 FROM videos WHERE id = $1', [videoId])).length === 1);
      return videoId;
    },
    async close() {
      await service.close();
      await responder?.unsubscribe();
      await bus.close();
      await db.drop();
    },
  };
  return h;
}
