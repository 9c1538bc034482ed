import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, type DescMessage, fromBinary, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { consumeEvents, createEventBus, createLogger, type EventBus, FileMailSender, openDatabase, requestRpc, type RunningService, signIdentity, type Subscription } from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, type TestDatabase, testBusPrefix, testNatsUrl } from '@timeliner/platform/testing';
import { type EventDefinition, MediaEvents, MediaType, type ReadModelProgress, ReadModelProgressSchema, ReadModelRebuild } from '@timeliner/proto';
import { authSchema, startAuthService } from '../../services/auth/src/index.js';
import { startSearchService } from '../../services/search/src/index.js';
import { feedTimelineEventHandlers } from '../../services/social/src/feed/feed-timeline-events.js';
import { startSocialService } from '../../services/social/src/index.js';
import { schema as socialSchema } from '../../services/social/src/schema.js';
import { timelineEventHandlers as socialTimelineHandlers } from '../../services/social/src/timelines/timeline-events.js';
import { userEventHandlers as socialUserHandlers } from '../../services/social/src/users/user-events.js';
import { schema as searchSchema } from '../../services/search/src/schema.js';
import { timelineEventHandlers } from '../../services/search/src/timelines/timeline-events.js';
import { userEventHandlers } from '../../services/search/src/users/user-events.js';
import { startTimelinesService, timelinesSchema } from '../../services/timelines/src/index.js';

/**
 * Read models rebuilt from their producer while the system runs: the search service's timelines
 * and the social service's feed timelines are emptied (as a new deployment, or an index whose
 * schema changed, starts) and rebuilt from the timelines service's replay while people go on
 * creating, renaming, publishing and deleting timelines; each result equals a copy of the same
 * model built from the events alone (a second consumer group of the same code that saw every
 * event). A rebuild over a full copy leaves no gap in the answers.
 */
const logger = createLogger('read-model-rebuild', process.env.TEST_LOG_LEVEL ?? 'silent');
const PEOPLE = 4;
const FIRST_TIMELINES = 120;

let bus: EventBus;
let prefix: string;
let secret: string;
let mailDir: string;
let timelinesDb: TestDatabase;
let authDb: TestDatabase;
let auth: RunningService;
let searchDb: TestDatabase;
let referenceDb: TestDatabase;
let timelines: RunningService;
let socialDb: TestDatabase;
let socialReferenceDb: TestDatabase;
let search: RunningService;
let social: RunningService;
let reference: DataSource;
let referenceConsumer: Subscription;
let socialReference: DataSource;
let socialReferenceConsumer: Subscription;
const people: string[] = [];
const mine = new Map<string, string>(); // timeline → owner

function call(service: RunningService, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, userId?: string, ip = '198.51.100.7') {
  const requestId = `rebuild-${randomBytes(6).toString('hex')}`;
  const headers = signIdentity(secret, { userId, sessionId: userId ? randomUUID() : undefined, clientIp: ip }, { requestId, method: method.toUpperCase(), url: path });
  return request(service.url)[method](path).set(headers).set('x-request-id', requestId);
}

const searchRows = async <T>(sql: string, params: unknown[] = []) => (await search.app.get(DataSource).query(sql, params)) as T[];
const socialRows = async <T>(sql: string, params: unknown[] = []) => (await social.app.get(DataSource).query(sql, params)) as T[];
const timelinesRows = async <T>(sql: string, params: unknown[] = []) => (await timelines.app.get(DataSource).query(sql, params)) as T[];

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;
const word = () => randomBytes(4).toString('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!);

/** An event of the media service, as its outbox would publish it. */
async function mediaEvent<S extends DescMessage>(definition: EventDefinition<S>, payload: MessageInitShape<S>): Promise<void> {
  await bus.publish({
    subject: definition.subject,
    meta: { id: randomUUID(), type: definition.type, version: definition.version, occurredAt: new Date().toISOString() },
    data: toBinary(definition.schema, create(definition.schema, payload)),
  });
}

/** A described video becomes the timeline's first (its cover, with its description), once the timelines service has it. */
async function describeCover(timelineId: string): Promise<void> {
  const mediaId = randomUUID();
  await mediaEvent(MediaEvents.MediaAltTextChanged, { mediaId, timelineId, mediaType: MediaType.VIDEO, altText: `A view of ${word()}`, version: 1n });
  await mediaEvent(MediaEvents.VideoProcessed, { mediaId, timelineId, duration: 5 });
  await mediaEvent(MediaEvents.MediaReordered, { timelineId, mediaIds: [mediaId] });
  await until(async () => {
    const [row] = await timelinesRows<{ described: boolean; processed: boolean; first: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM media_alt_texts WHERE media_id = $1) AS described, EXISTS (SELECT 1 FROM timeline_videos WHERE media_id = $1) AS processed,
              coalesce((SELECT video_order[1] = $1 FROM timelines WHERE id = $2), false) AS first`,
      [mediaId, timelineId],
    );
    return Boolean(row?.described && row.processed && row.first);
  }, 15_000);
}

/** One change as a person would make it: a new timeline, a rename, publishing, describing its cover, or a deletion. */
async function someChange(): Promise<void> {
  const roll = Math.random();
  if (roll < 0.4 || mine.size < 10) {
    const owner = pick(people);
    const res = await call(timelines, 'post', '/api/timelines', owner).send({ title: `Trip ${word()} #travel`, description: `Notes ${word()}` }).expect(201);
    mine.set(res.body.id, owner);
    return;
  }
  const [id, owner] = pick([...mine.entries()]);
  if (roll < 0.6) await call(timelines, 'patch', `/api/timelines/${id}`, owner).send({ title: `Renamed ${word()} #${word()}` }).expect(200);
  else if (roll < 0.8) await call(timelines, 'patch', `/api/timelines/${id}`, owner).send({ visibility: 'public', status: 'published' }).expect(200);
  else if (roll < 0.9) await describeCover(id);
  else {
    mine.delete(id);
    await call(timelines, 'delete', `/api/timelines/${id}`, owner).expect(204);
  }
}

/** What a copy holds of every timeline, in id order. */
const MODEL_SQL = `SELECT id, creator_id, creator_username, creator_name, listed, title, description, hashtags, video_count, duration, views::text AS views,
  likes_count, comments_count, activity_score, last_activity_at, created_at, updated_at, cover_media_id, cover_alt_text, revision::text AS revision FROM timelines ORDER BY id`;

/** What the social service's feed holds of every timeline (key_changed_at is the clock's), and the creators' created_timeline activities. */
const FEED_SQL = `SELECT id, creator_id, creator_name, title, description, visibility, status, video_count, duration, views::text AS views, likes_count, comments_count,
  activity_score, score_band, last_activity_at, created_at, updated_at, cover_media_id, cover_alt_text, revision::text AS revision FROM feed_timelines ORDER BY id`;
const ACTIVITIES_SQL = `SELECT user_id, activity_type, target_id, created_at FROM activities WHERE activity_type = 'created_timeline' ORDER BY target_id`;

/** Asks a service to rebuild, as `npm run read-model -- rebuild <service>` does; resolves with the progress lines once finished. */
async function rebuild(model = 'timelines', service = 'search'): Promise<ReadModelProgress[]> {
  const lines: ReadModelProgress[] = [];
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const sub = await bus.subscribe(ReadModelRebuild.progressSubject(service), (message) => {
    const progress = fromBinary(ReadModelProgressSchema, message.data);
    lines.push(progress);
    if (progress.finished) finished();
  });
  try {
    const reply = await requestRpc(bus, ReadModelRebuild.rpc(service), { model }, { timeoutMs: 5_000 });
    expect(reply.alreadyRunning).toBe(false);
    expect(reply.models).toEqual([model]);
    await done;
  } finally {
    await sub.unsubscribe();
  }
  return lines;
}

beforeAll(async () => {
  prefix = testBusPrefix('readmodelrebuild');
  bus = await createEventBus({ natsUrl: testNatsUrl(), prefix, logger });
  secret = randomBytes(32).toString('hex');
  mailDir = await mkdtemp(join(tmpdir(), 'rebuild-mail-'));
  timelinesDb = await createTestDatabase('rebuildtimelines', { schemas: [timelinesSchema] });
  searchDb = await createTestDatabase('rebuildsearch', { schemas: [searchSchema] });
  referenceDb = await createTestDatabase('rebuildreference', { schemas: [searchSchema] });
  socialDb = await createTestDatabase('rebuildsocial', { schemas: [socialSchema] });
  socialReferenceDb = await createTestDatabase('rebuildsocialref', { schemas: [socialSchema] });
  authDb = await createTestDatabase('rebuildauth', { schemas: [authSchema] });
  auth = await startAuthService({ databaseUrl: authDb.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' });
  timelines = await startTimelinesService({ databaseUrl: timelinesDb.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1', mail: new FileMailSender({ dir: mailDir }) });
  search = await startSearchService({ databaseUrl: searchDb.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' });
  // The copy built from events alone: search's schema and handlers under a consumer group of its own.
  reference = await openDatabase({ url: referenceDb.url, schema: searchSchema.name, entities: searchSchema.entities, migrations: searchSchema.migrations, logger });
  referenceConsumer = await consumeEvents(bus, { durable: 'search-reference', dataSource: reference, logger }, [...timelineEventHandlers, ...userEventHandlers]);
  social = await startSocialService({ databaseUrl: socialDb.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' });
  socialReference = await openDatabase({ url: socialReferenceDb.url, schema: socialSchema.name, entities: socialSchema.entities, migrations: socialSchema.migrations, logger });
  socialReferenceConsumer = await consumeEvents(bus, { durable: 'social-reference', dataSource: socialReference, logger }, [...socialUserHandlers, ...socialTimelineHandlers, ...feedTimelineEventHandlers]);

  for (let i = 0; i < PEOPLE; i++) {
    const username = `rebuild_${word()}`;
    const res = await call(auth, 'post', '/api/auth/register', undefined, `198.51.100.${30 + i}`)
      .send({ username, email: `${username}@example.com`, password: `Pw-${randomBytes(12).toString('hex')}`, displayName: `Rebuilder ${i}` })
      .expect(201);
    people.push(res.body.user.id);
  }
  await until(async () => (await timelinesRows<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]!.n === PEOPLE, 15_000);
  for (let i = 0; i < FIRST_TIMELINES; i++) await someChange();
}, 120_000);

afterAll(async () => {
  await referenceConsumer?.unsubscribe();
  await reference?.destroy();
  await socialReferenceConsumer?.unsubscribe();
  await socialReference?.destroy();
  await social?.close();
  await search?.close();
  await timelines?.close();
  await auth?.close();
  await bus?.close();
  await deleteBusStreams(testNatsUrl(), prefix).catch(() => undefined);
  for (const db of [referenceDb, searchDb, socialReferenceDb, socialDb, timelinesDb, authDb]) await db?.drop();
  await rm(mailDir, { recursive: true, force: true });
});

/** Both copies hold what the producer has (every timeline at its last revision), then are compared. */
async function settled(): Promise<void> {
  const producer = async () => JSON.stringify(await timelinesRows('SELECT id, revision::text AS revision FROM timelines WHERE revision > 0 ORDER BY id'));
  const copy = async (query: (sql: string) => Promise<unknown[]>) => JSON.stringify(await query('SELECT id, revision::text AS revision FROM timelines ORDER BY id'));
  const feed = async (query: (sql: string) => Promise<unknown[]>) => JSON.stringify(await query('SELECT id, revision::text AS revision FROM feed_timelines ORDER BY id'));
  await until(async () => {
    const want = await producer();
    return (
      (await copy((sql) => searchRows(sql))) === want &&
      (await copy((sql) => reference.query(sql))) === want &&
      (await feed((sql) => socialRows(sql))) === want &&
      (await feed((sql) => socialReference.query(sql))) === want
    );
  }, 30_000);
}

describe('rebuilding a read model from its producer', () => {
  it('over a full copy: every answer stays complete while it runs, and nothing changes', async () => {
    await settled();
    const listed = (await searchRows<{ id: string; title: string }>(`SELECT id, title FROM timelines WHERE listed ORDER BY id LIMIT 1`))[0]!;
    const before = await searchRows(MODEL_SQL);
    let answers = 0;
    let running = true;
    const asking = (async () => {
      while (running) {
        const res = await call(search, 'get', `/api/search/enhanced?q=${encodeURIComponent(listed.title)}&type=timelines`).expect(200);
        expect(JSON.stringify(res.body)).toContain(listed.id);
        answers += 1;
      }
    })();
    const lines = await rebuild();
    running = false;
    await asking;
    expect(answers).toBeGreaterThan(0);
    const last = lines.at(-1)!;
    expect(last.error).toBe('');
    expect(Number(last.done)).toBe(before.length);
    expect(Number(last.removed)).toBe(0);
    expect(await searchRows(MODEL_SQL)).toEqual(before);
  }, 60_000);

  it('from empty, while timelines are created, renamed, published and deleted: equal to the copy built from events', async () => {
    await settled();
    const existing = (await timelinesRows<{ n: number }>('SELECT count(*)::int AS n FROM timelines'))[0]!.n;
    // A timeline whose deletion this copy never heard of (it was before the stream's retention).
    const stale = randomUUID();
    await searchRows(`INSERT INTO timelines (id, creator_id, title, listed, revision) VALUES ($1, $2, 'gone long ago', true, 3)`, [stale, people[0]]);
    // Emptied as a new deployment starts: the rows and the tombstones.
    await searchRows('TRUNCATE timelines, deleted_timelines');
    await searchRows(`INSERT INTO timelines (id, creator_id, title, listed, revision) VALUES ($1, $2, 'gone long ago', true, 3)`, [stale, people[0]]);
    await socialRows(`DELETE FROM activities WHERE activity_type = 'created_timeline'`);
    await socialRows('TRUNCATE feed_timelines, deleted_timelines');
    await socialRows(`DELETE FROM feed_inbox WHERE item_type = 'timeline'`);
    await socialRows(
      `INSERT INTO feed_timelines (id, creator_id, creator_name, title, visibility, status, revision, last_activity_at, created_at, updated_at, key_changed_at)
       VALUES ($1, $2, 'Someone', 'gone long ago', 'public', 'published', 3, now(), now(), now(), now())`,
      [stale, people[0]],
    );

    let writing = true;
    let writes = 0;
    const writer = (async () => {
      while (writing) {
        await someChange();
        writes += 1;
      }
    })();
    const [lines, socialLines] = await Promise.all([rebuild(), rebuild('timelines', 'social')]);
    // Some more changes after the rebuild finished, then stop.
    for (let i = 0; i < 10; i++) await someChange();
    writing = false;
    await writer;
    expect(writes).toBeGreaterThan(0);
    const last = lines.at(-1)!;
    expect(last.error).toBe('');
    expect(last.finished).toBe(true);
    expect(Number(last.done)).toBeGreaterThanOrEqual(existing - writes);
    expect(existing).toBeGreaterThan(20);
    expect(Number(last.removed)).toBe(1);
    expect(lines.every((line) => line.model === 'timelines')).toBe(true);
    expect(socialLines.at(-1)!.error).toBe('');
    expect(Number(socialLines.at(-1)!.removed)).toBe(1);

    await settled();
    const rebuilt = await searchRows(MODEL_SQL);
    const fromEvents = await reference.query(MODEL_SQL);
    expect(rebuilt.length).toBeGreaterThan(20);
    expect(rebuilt).toEqual(fromEvents);
    expect(rebuilt.some((row) => (row as { id: string }).id === stale)).toBe(false);

    const feedRebuilt = await socialRows(FEED_SQL);
    expect(feedRebuilt.length).toBe(rebuilt.length);
    // Covers described by their creators are among them (their description came with the replay).
    expect(feedRebuilt.some((row) => (row as { cover_alt_text: string | null }).cover_alt_text !== null)).toBe(true);
    expect(feedRebuilt).toEqual(await socialReference.query(FEED_SQL));
    expect(await socialRows(ACTIVITIES_SQL)).toEqual(await socialReference.query(ACTIVITIES_SQL));
    // The following tab's inboxes (the creators' own published timelines) as the events left them.
    const INBOX_SQL = `SELECT owner_id, item_type, item_id, author_id, at FROM feed_inbox WHERE item_type = 'timeline' ORDER BY owner_id, item_id`;
    const inboxes = await socialRows(INBOX_SQL);
    expect(inboxes.length).toBeGreaterThan(0);
    expect(inboxes).toEqual(await socialReference.query(INBOX_SQL));
  }, 120_000);

  it('people from empty, while profiles change: equal to the copy built from events', async () => {
    const PEOPLE_SQL = 'SELECT id, username, display_name, bio, avatar, is_private FROM users ORDER BY id';
    const ids = JSON.stringify([...people].sort());
    await until(async () => JSON.stringify((await searchRows<{ id: string }>('SELECT id FROM users ORDER BY id')).map((r) => r.id)) === ids, 15_000);
    // A person whose account went while search did not hear of it.
    const gone = randomUUID();
    await searchRows('TRUNCATE users');
    await searchRows(`INSERT INTO users (id, username, display_name) VALUES ($1, 'gone_long_ago', 'Gone')`, [gone]);

    let writing = true;
    let changes = 0;
    const writer = (async () => {
      while (writing) {
        await call(auth, 'put', '/api/auth/profile', pick(people)).send({ displayName: `Renamed ${word()}`, bio: `Now ${word()}` }).expect(200);
        changes += 1;
      }
    })();
    const lines = await rebuild('people');
    for (let i = 0; i < 3; i++) await call(auth, 'put', '/api/auth/profile', pick(people)).send({ displayName: `Later ${word()}` }).expect(200);
    writing = false;
    await writer;
    expect(changes).toBeGreaterThan(0);
    const last = lines.at(-1)!;
    expect(last.error).toBe('');
    expect(Number(last.done)).toBe(PEOPLE);
    expect(Number(last.removed)).toBe(1);

    // Profile changes that raced the replay wait for the person, then come on top. Compared once
    // both copies hold every person at the version the auth service has (no event still on its way).
    const VERSIONS_SQL = 'SELECT id, profile_version::text AS profile_version FROM users ORDER BY id';
    const producer = async () => JSON.stringify(await auth.app.get(DataSource).query(VERSIONS_SQL));
    await until(async () => {
      const want = await producer();
      return JSON.stringify(await searchRows(VERSIONS_SQL)) === want && JSON.stringify(await reference.query(VERSIONS_SQL)) === want;
    }, 30_000);
    const fromEvents = async () => JSON.stringify(await reference.query(PEOPLE_SQL));
    await until(async () => JSON.stringify(await searchRows(PEOPLE_SQL)) === (await fromEvents()), 30_000);
    expect(await searchRows(PEOPLE_SQL)).toEqual(await reference.query(PEOPLE_SQL));
  }, 60_000);

  it('refuses a model the service does not have, naming those it has', async () => {
    await expect(requestRpc(bus, ReadModelRebuild.rpc('search'), { model: 'nonsense' }, { timeoutMs: 5_000 })).rejects.toThrow(/has no read model "nonsense" \(it has timelines, people, moderation, account-deletions\)/);
  });
});
