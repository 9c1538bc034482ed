import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import request from 'supertest';
import { DataSource } from 'typeorm';
import webpush from 'web-push';
import {
  consumeEvents,
  createEventBus,
  createLogger,
  createWorkQueue,
  deleteWorkStream,
  type EventBus,
  EventWriter,
  FileMailSender,
  openDatabase,
  requestRpc,
  type RunningService,
  signIdentity,
  type Subscription,
  type WorkQueue,
} from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, type TestDatabase, type TestSchema, testBusPrefix, testNatsUrl } from '@timeliner/platform/testing';
import { type ReadModelProgress, ReadModelProgressSchema, ReadModelRebuild, SocialRpc, TimelinesEvents, TimelinesRpc } from '@timeliner/proto';
import { authSchema, startAuthService } from '../../services/auth/src/index.js';
import { OutboxNotificationOutlet } from '../../services/notifications/src/live/notification-outlet.js';
import { Notifier } from '../../services/notifications/src/notifications/notifier.js';
import { PreferenceRepository } from '../../services/notifications/src/preferences/preference.repository.js';
import { notificationsSchema, startNotificationsService } from '../../services/notifications/src/index.js';
import { timelineEventHandlers as notificationTimelineHandlers } from '../../services/notifications/src/timelines/timeline-events.js';
import { membersReadModel } from '../../services/notifications/src/timelines/timeline-rebuild.js';
import { userEventHandlers as notificationUserHandlers } from '../../services/notifications/src/users/user-events.js';
import { startSocialService } from '../../services/social/src/index.js';
import { schema as socialSchema } from '../../services/social/src/schema.js';
import { userEventHandlers as socialUserHandlers } from '../../services/social/src/users/user-events.js';
import { startTimelinesService } from '../../services/timelines/src/index.js';
import { commentsReadModel } from '../../services/timelines/src/timelines/like-rebuild.js';
import { schema as timelinesSchema } from '../../services/timelines/src/schema.js';
import { userEventHandlers as timelinesUserHandlers } from '../../services/timelines/src/users/user-events.js';

/**
 * The other services' copies rebuilt from their producers while the system runs (see
 * read-model-rebuild.test.ts for search's and the feed's): the people of social, timelines and
 * notifications (auth's replay, with the profile version and, for the copies that match
 * invitations, the e-mail address) and the timelines of notifications (the timelines service's
 * replay). Each copy is emptied while people go on changing their profiles and timelines, rebuilt,
 * and compared with a copy of the same model built from the events alone (a second consumer group
 * of the same handlers that saw every event).
 */
const logger = createLogger('read-model-rebuild-copies', process.env.TEST_LOG_LEVEL ?? 'silent');
const PEOPLE = 6;

let bus: EventBus;
let queue: WorkQueue;
let prefix: string;
let secret: string;
let mailDir: string;
const dbs: TestDatabase[] = [];
let auth: RunningService;
let timelines: RunningService;
let social: RunningService;
let notifications: RunningService;
const references: Array<{ dataSource: DataSource; consumer: Subscription }> = [];
let socialReference: DataSource;
let timelinesReference: DataSource;
let notificationsReference: DataSource;
const people: string[] = [];
const mine = new Map<string, string>(); // timeline → owner

function call(service: RunningService, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, userId?: string, ip = '198.51.100.7') {
  const requestId = `copies-${randomBytes(6).toString('hex')}`;
  const headers = signIdentity(secret, { userId, sessionId: userId ? randomUUID() : undefined, clientIp: ip }, { requestId, method: method.toUpperCase(), url: path });
  return request(service.url)[method](path).set(headers).set('x-request-id', requestId);
}

const rows = (service: RunningService) => async <T>(sql: string, params: unknown[] = []) => (await service.app.get(DataSource).query(sql, params)) as T[];

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;
const word = () => randomBytes(4).toString('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!);

/** One change to a timeline as a person would make it: a new one, a rename, publishing, making it private, or a deletion. */
async function someTimelineChange(): Promise<void> {
  const roll = Math.random();
  if (roll < 0.35 || mine.size < 10) {
    const owner = pick(people);
    const res = await call(timelines, 'post', '/api/timelines', owner).send({ title: `Trip ${word()}`, description: `Notes ${word()}` }).expect(201);
    mine.set(res.body.id, owner);
    return;
  }
  const [id, owner] = pick([...mine.entries()]);
  if (roll < 0.6) await call(timelines, 'patch', `/api/timelines/${id}`, owner).send({ title: `Renamed ${word()}` }).expect(200);
  else if (roll < 0.8) await call(timelines, 'patch', `/api/timelines/${id}`, owner).send({ visibility: 'public', status: 'published' }).expect(200);
  else if (roll < 0.9) await call(timelines, 'patch', `/api/timelines/${id}`, owner).send({ visibility: 'private' }).expect(200);
  else {
    mine.delete(id);
    await call(timelines, 'delete', `/api/timelines/${id}`, owner).expect(204);
  }
}

const someProfileChange = () => call(auth, 'put', '/api/auth/profile', pick(people)).send({ displayName: `Renamed ${word()}`, bio: `Now ${word()}` }).expect(200);

/** Asks a service to rebuild one model, as `npm run read-model -- rebuild <service> --model <model>` does; resolves with the progress lines once finished. */
async function rebuild(service: string, model: string): Promise<ReadModelProgress[]> {
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

/** A database of its own, started on a copy of the run's migrated template of the schema. */
async function database(label: string, schema: TestSchema): Promise<TestDatabase> {
  const db = await createTestDatabase(label, { schemas: [schema] });
  dbs.push(db);
  return db;
}

/** A copy built from events alone: a service's schema and handlers under a consumer group of their own. */
async function reference(label: string, schema: TestSchema, handlers: (dataSource: DataSource) => Parameters<typeof consumeEvents>[2]): Promise<DataSource> {
  const db = await database(label, schema);
  const dataSource = await openDatabase({ url: db.url, schema: schema.name, entities: schema.entities, migrations: schema.migrations, logger });
  const consumer = await consumeEvents(bus, { durable: `${label}`, dataSource, logger }, handlers(dataSource));
  references.push({ dataSource, consumer });
  return dataSource;
}

beforeAll(async () => {
  prefix = testBusPrefix('rebuildcopies');
  bus = await createEventBus({ natsUrl: testNatsUrl(), prefix, logger });
  queue = await createWorkQueue({ natsUrl: testNatsUrl(), prefix, logger });
  secret = randomBytes(32).toString('hex');
  mailDir = await mkdtemp(join(tmpdir(), 'rebuild-copies-mail-'));
  const common = { bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' };
  auth = await startAuthService({ ...common, databaseUrl: (await database('copiesauth', authSchema)).url });
  timelines = await startTimelinesService({ ...common, databaseUrl: (await database('copiestimelines', timelinesSchema)).url, mail: new FileMailSender({ dir: mailDir }) });
  social = await startSocialService({ ...common, databaseUrl: (await database('copiessocial', socialSchema)).url });
  notifications = await startNotificationsService({
    ...common,
    databaseUrl: (await database('copiesnotifications', notificationsSchema)).url,
    workQueue: queue,
    vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@timeliner.test' },
  });
  socialReference = await reference('copiessocialref', socialSchema, () => socialUserHandlers);
  timelinesReference = await reference('copiestimelinesref', timelinesSchema, () => timelinesUserHandlers);
  // Its notifier's events stay in the reference's outbox (no relay): only the copy is compared.
  notificationsReference = await reference('copiesnotificationsref', notificationsSchema, (dataSource) => {
    const notifier = new Notifier(new OutboxNotificationOutlet(new EventWriter()), new PreferenceRepository(dataSource));
    return [...notificationUserHandlers(notifier), ...notificationTimelineHandlers(notifier)];
  });

  for (let i = 0; i < PEOPLE; i++) {
    const username = `copies_${word()}`;
    const res = await call(auth, 'post', '/api/auth/register', undefined, `198.51.100.${40 + i}`)
      .send({ username, email: `${username}@example.com`, password: `Pw-${randomBytes(12).toString('hex')}`, displayName: `Copier ${i}` })
      .expect(201);
    people.push(res.body.user.id);
  }
  await until(async () => (await rows(timelines)<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]!.n === PEOPLE, 15_000);
  for (let i = 0; i < 40; i++) await someTimelineChange();
}, 120_000);

afterAll(async () => {
  for (const { dataSource, consumer } of references) {
    await consumer.unsubscribe();
    await dataSource.destroy();
  }
  await notifications?.close();
  await social?.close();
  await timelines?.close();
  await auth?.close();
  await queue?.close();
  await bus?.close();
  await deleteBusStreams(testNatsUrl(), prefix).catch(() => undefined);
  await deleteWorkStream(testNatsUrl(), prefix).catch(() => undefined);
  for (const db of dbs) await db.drop();
  await rm(mailDir, { recursive: true, force: true });
});

/** What each copy holds of people, in id order (the columns its events write). */
const PEOPLE_SQL = {
  social: 'SELECT id, username, display_name, avatar, is_private, profile_version::text AS profile_version FROM users ORDER BY id',
  timelines: 'SELECT id, username, display_name, email, avatar, profile_version::text AS profile_version FROM users ORDER BY id',
  notifications: 'SELECT id, username, display_name, avatar, email, profile_version::text AS profile_version FROM users ORDER BY id',
} as const;

describe('rebuilding the other services’ copies from their producers', () => {
  it('people of social, timelines and notifications from empty, while profiles change: each equal to its copy built from events', async () => {
    const copies = [
      { service: 'social', live: rows(social), fromEvents: socialReference, sql: PEOPLE_SQL.social },
      { service: 'timelines', live: rows(timelines), fromEvents: timelinesReference, sql: PEOPLE_SQL.timelines },
      { service: 'notifications', live: rows(notifications), fromEvents: notificationsReference, sql: PEOPLE_SQL.notifications },
    ];
    const ids = JSON.stringify([...people].sort());
    for (const copy of copies) {
      await until(async () => JSON.stringify((await copy.live<{ id: string }>('SELECT id FROM users ORDER BY id')).map((r) => r.id)) === ids, 15_000);
    }
    // Emptied as a new deployment starts, with a person whose account went while the copy did not hear of it.
    const gone = randomUUID();
    await copies[0]!.live('DELETE FROM users');
    await copies[0]!.live(`INSERT INTO users (id, username, display_name) VALUES ($1, 'gone_long_ago', 'Gone')`, [gone]);
    await copies[1]!.live('DELETE FROM users');
    await copies[1]!.live(`INSERT INTO users (id, username, display_name, email) VALUES ($1, 'gone_long_ago', 'Gone', 'gone@example.com')`, [gone]);
    await copies[2]!.live('DELETE FROM users');
    await copies[2]!.live(`INSERT INTO users (id, username, display_name, email) VALUES ($1, 'gone_long_ago', 'Gone', 'gone@example.com')`, [gone]);

    let writing = true;
    let changes = 0;
    const writer = (async () => {
      while (writing) {
        await someProfileChange();
        changes += 1;
      }
    })();
    const results = await Promise.all(copies.map((copy) => rebuild(copy.service, 'people')));
    for (let i = 0; i < 3; i++) await someProfileChange();
    writing = false;
    await writer;
    expect(changes).toBeGreaterThan(0);
    for (const lines of results) {
      const last = lines.at(-1)!;
      expect(last.error).toBe('');
      expect(last.finished).toBe(true);
      expect(Number(last.done)).toBe(PEOPLE);
      expect(Number(last.removed)).toBe(1);
    }

    // Profile changes that raced the replay wait for the person, or are older than what it brought.
    // Compared once both copies hold every person at the version the auth service has (no event
    // still on its way).
    const VERSIONS_SQL = 'SELECT id, profile_version::text AS profile_version FROM users ORDER BY id';
    const producer = async () => JSON.stringify(await rows(auth)(VERSIONS_SQL));
    for (const copy of copies) {
      await until(async () => {
        const want = await producer();
        return JSON.stringify(await copy.live(VERSIONS_SQL)) === want && JSON.stringify(await copy.fromEvents.query(VERSIONS_SQL)) === want;
      }, 30_000);
      await until(async () => JSON.stringify(await copy.live(copy.sql)) === JSON.stringify(await copy.fromEvents.query(copy.sql)), 30_000);
      const rebuilt = await copy.live<{ id: string; email?: string }>(copy.sql);
      expect(rebuilt).toEqual(await copy.fromEvents.query(copy.sql));
      expect(rebuilt.map((r) => r.id)).toEqual([...people].sort());
      if (copy.service !== 'social') expect(rebuilt.every((r) => r.email?.endsWith('@example.com'))).toBe(true);
    }
    // The timelines' creator names followed the people (each timeline's snapshot told the others).
    const names = await rows(timelines)<{ n: number }>(`SELECT count(*)::int AS n FROM timelines t JOIN users u ON u.id = t.creator_id WHERE t.creator_name <> coalesce(nullif(u.display_name, ''), u.username)`);
    expect(names[0]!.n).toBe(0);
    // social: the account gone is remembered as deleted (by a digest of its id), as its deletion event would have left it.
    expect(await rows(social)(`SELECT 1 FROM deleted_users WHERE digest = (SELECT sha256(salt || convert_to($1::uuid::text, 'UTF8')) FROM deleted_users_key)`, [gone])).toHaveLength(1);
  }, 90_000);

  it('notifications’ timelines from empty, while timelines are created, renamed, published, made private and deleted: equal to the copy built from events', async () => {
    const TIMELINES_SQL = 'SELECT id, owner_id, title, visibility, revision::text AS revision FROM timelines ORDER BY id';
    const live = rows(notifications);
    const settled = async () => {
      const producer = async () => JSON.stringify(await rows(timelines)('SELECT id, revision::text AS revision FROM timelines WHERE revision > 0 ORDER BY id'));
      const copy = 'SELECT id, revision::text AS revision FROM timelines ORDER BY id';
      let last = '';
      await until(async () => {
        const want = await producer();
        const [rebuilt, fromEvents] = [JSON.stringify(await live(copy)), JSON.stringify(await notificationsReference.query(copy))];
        last = `producer ${want}\nrebuilt ${rebuilt}\nfrom events ${fromEvents}`;
        return rebuilt === want && fromEvents === want;
      }, 30_000).catch((error: Error) => {
        throw new Error(`${error.message}: ${last}`);
      });
    };
    await settled();
    const stale = randomUUID();
    await live(`DELETE FROM timelines`);
    await live(`DELETE FROM tombstones WHERE kind = 'timeline'`);
    await live(`INSERT INTO timelines (id, owner_id, title, visibility, revision) VALUES ($1, $2, 'gone long ago', 'public', 3)`, [stale, people[0]]);

    let writing = true;
    let writes = 0;
    const writer = (async () => {
      while (writing) {
        await someTimelineChange();
        writes += 1;
      }
    })();
    const lines = await rebuild('notifications', 'timelines');
    for (let i = 0; i < 10; i++) await someTimelineChange();
    writing = false;
    await writer;
    expect(writes).toBeGreaterThan(0);
    const last = lines.at(-1)!;
    expect(last.error).toBe('');
    expect(last.finished).toBe(true);
    expect(Number(last.removed)).toBe(1);

    await settled();
    const rebuilt = await live(TIMELINES_SQL);
    expect(rebuilt.length).toBeGreaterThan(10);
    expect(rebuilt).toEqual(await notificationsReference.query(TIMELINES_SQL));
    expect(await live(`SELECT id FROM tombstones WHERE kind = 'timeline' AND id = $1`, [stale])).toHaveLength(1);
  }, 90_000);

  it('timelines’ like counts from empty, while people like and take likes back: equal to the social service’s counts, as the events left them', async () => {
    const open = [...mine.entries()].slice(0, 8);
    for (const [id, owner] of open) await call(timelines, 'patch', `/api/timelines/${id}`, owner).send({ visibility: 'public', status: 'published' }).expect(200);
    const targets = open.map(([id]) => id);
    const someLike = async () => {
      const on = Math.random() < 0.7;
      await call(social, on ? 'post' : 'delete', `/api/timelines/${pick(targets)}/like`, pick(people)).expect(200);
    };
    const PRODUCER_SQL = 'SELECT timeline_id AS id, likes_count, count_version::text AS version FROM timeline_reactions ORDER BY timeline_id';
    const COPY_SQL = 'SELECT id, likes_count, likes_version::text AS version FROM timelines WHERE likes_version > 0 ORDER BY id';
    let last = '';
    const settled = () =>
      until(async () => {
        const [want, have] = [JSON.stringify(await rows(social)(PRODUCER_SQL)), JSON.stringify(await rows(timelines)(COPY_SQL))];
        last = `social ${want}\ntimelines ${have}`;
        return want === have;
      }, 30_000).catch((error: Error) => {
        throw new Error(`${error.message}: ${last}`);
      });
    for (let i = 0; i < 30; i++) await someLike();
    // The copy built from the events holds the social service's counts.
    await settled();
    const fromEvents = await rows(timelines)(COPY_SQL);
    expect(fromEvents.length).toBeGreaterThan(0);

    // Emptied, with a count the social service does not have (its likes went while the copy did not hear of it).
    const [stale] = [...mine.keys()].filter((id) => !targets.includes(id));
    await rows(timelines)('UPDATE timelines SET likes_count = 0, likes_version = 0, last_like_at = NULL');
    await rows(timelines)('UPDATE timelines SET likes_count = 7 WHERE id = $1', [stale]);

    let writing = true;
    let likes = 0;
    const writer = (async () => {
      while (writing) {
        await someLike();
        likes += 1;
      }
    })();
    const lines = await rebuild('timelines', 'likes');
    // The writer stops first: two changes at once may pick the same pair.
    writing = false;
    await writer;
    for (let i = 0; i < 5; i++) await someLike();
    expect(likes).toBeGreaterThan(0);
    const lastLine = lines.at(-1)!;
    expect(lastLine.error).toBe('');
    expect(lastLine.finished).toBe(true);
    expect(Number(lastLine.removed)).toBe(1);

    await settled();
    expect(await rows(timelines)(COPY_SQL)).toEqual(await rows(social)(PRODUCER_SQL));
    expect(await rows(timelines)('SELECT likes_count FROM timelines WHERE id = $1', [stale])).toEqual([{ likes_count: 0 }]);
    // The last like is back wherever there are likes, and the feed's copy (from the snapshots) has the counts too.
    expect(await rows(timelines)('SELECT id FROM timelines WHERE likes_count > 0 AND last_like_at IS NULL')).toEqual([]);
    await until(async () => {
      const feed = await rows(social)<{ id: string; likes_count: number }>('SELECT id, likes_count FROM feed_timelines WHERE id = ANY($1::uuid[]) ORDER BY id', [targets]);
      const counts = await rows(timelines)<{ id: string; likes_count: number }>('SELECT id, likes_count FROM timelines WHERE id = ANY($1::uuid[]) ORDER BY id', [targets]);
      return JSON.stringify(feed) === JSON.stringify(counts);
    }, 30_000);
  }, 90_000);

  it('timelines’ comment counts from empty, while people comment and delete comments: equal to the social service’s counts, never an older one put back', async () => {
    const open = [...mine.entries()].slice(0, 6);
    for (const [id, owner] of open) await call(timelines, 'patch', `/api/timelines/${id}`, owner).send({ visibility: 'public', status: 'published' }).expect(200);
    const targets = open.map(([id]) => id);
    const written: Array<{ timelineId: string; commentId: string; author: string }> = [];
    const someComment = async () => {
      if (written.length > 3 && Math.random() < 0.3) {
        const [gone] = written.splice(Math.floor(Math.random() * written.length), 1);
        await call(social, 'delete', `/api/timelines/${gone!.timelineId}/comments/${gone!.commentId}`, gone!.author).expect(204);
        return;
      }
      const [timelineId, author] = [pick(targets), pick(people)];
      const res = await call(social, 'post', `/api/timelines/${timelineId}/comments`, author).send({ content: `Nice ${word()}` }).expect(201);
      written.push({ timelineId, commentId: res.body.id, author });
    };
    const PRODUCER_SQL = 'SELECT timeline_id AS id, comments_count, comments_version::text AS version FROM timeline_reactions WHERE comments_version > 0 ORDER BY timeline_id';
    const COPY_SQL = 'SELECT id, comments_count, comments_version::text AS version FROM timelines WHERE comments_version > 0 ORDER BY id';
    let last = '';
    const settled = () =>
      until(async () => {
        const [want, have] = [JSON.stringify(await rows(social)(PRODUCER_SQL)), JSON.stringify(await rows(timelines)(COPY_SQL))];
        last = `social ${want}\ntimelines ${have}`;
        return want === have;
      }, 30_000).catch((error: Error) => {
        throw new Error(`${error.message}: ${last}`);
      });
    for (let i = 0; i < 25; i++) await someComment();
    await settled();
    const fromEvents = await rows(timelines)(COPY_SQL);
    expect(fromEvents.length).toBeGreaterThan(0);
    // Each count is what the social service shows: its comments.
    const shown = await rows(social)<{ id: string; n: number }>('SELECT timeline_id AS id, count(*)::int AS n FROM timeline_comments WHERE NOT held GROUP BY timeline_id ORDER BY timeline_id');
    expect(fromEvents.map((r) => ({ id: (r as { id: string }).id, n: (r as { comments_count: number }).comments_count })).filter((r) => r.n > 0)).toEqual(shown);

    // Emptied, with a count the social service does not have, and an older count put in one (as a
    // counter moving by one would, from a redelivered event): the rebuild brings each back.
    const counted = new Set((await rows(social)<{ id: string }>('SELECT timeline_id AS id FROM timeline_reactions')).map((r) => r.id));
    const stale = [...mine.keys()].find((id) => !counted.has(id));
    await rows(timelines)('UPDATE timelines SET comments_count = 0, comments_version = 0');
    await rows(timelines)('UPDATE timelines SET comments_count = 9 WHERE id = $1', [stale]);

    let writing = true;
    let comments = 0;
    const writer = (async () => {
      while (writing) {
        await someComment();
        comments += 1;
      }
    })();
    const lines = await rebuild('timelines', 'comments');
    // The writer stops first: two changes at once may pick the same pair.
    writing = false;
    await writer;
    for (let i = 0; i < 5; i++) await someComment();
    expect(comments).toBeGreaterThan(0);
    const lastLine = lines.find((line) => line.finished)!;
    expect(lastLine.error).toBe('');
    expect(lastLine.finished).toBe(true);
    expect(Number(lastLine.removed)).toBe(1);

    await settled();
    expect(await rows(timelines)(COPY_SQL)).toEqual(await rows(social)(PRODUCER_SQL));
    expect(await rows(timelines)('SELECT comments_count FROM timelines WHERE id = $1', [stale])).toEqual([{ comments_count: 0 }]);

    // A replay taken before the newest comment, applied again after it, changes nothing.
    const [target] = targets;
    const before = (await requestRpc(bus, SocialRpc.ReplayTimelineLikes, { timelineIds: [target!] }, { timeoutMs: 5_000 })).timelines;
    const res = await call(social, 'post', `/api/timelines/${target}/comments`, pick(people)).send({ content: `Later ${word()}` }).expect(201);
    written.push({ timelineId: target!, commentId: res.body.id, author: '' });
    await settled();
    const now = await rows(timelines)<{ comments_count: number }>('SELECT comments_count FROM timelines WHERE id = $1', [target]);
    await timelines.app.get(DataSource).transaction((manager) => commentsReadModel(bus).apply(manager, before[0]!));
    expect(await rows(timelines)('SELECT comments_count FROM timelines WHERE id = $1', [target])).toEqual(now);
  }, 90_000);

  it('notifications’ teams from empty, while people are added to and removed from teams: equal to the timelines service’s, never an older change put back', async () => {
    const emails = new Map((await rows(auth)<{ id: string; email: string }>('SELECT id, email FROM users')).map((r) => [r.id, r.email]));
    const teams = [...mine.entries()].slice(0, 8);
    const someTeamChange = async () => {
      const [timelineId, owner] = pick(teams);
      const person = pick(people.filter((p) => p !== owner));
      const member = await rows(timelines)('SELECT 1 FROM collaborators WHERE timeline_id = $1 AND user_id = $2', [timelineId, person]);
      if (member.length > 0) await call(timelines, 'delete', `/api/timelines/${timelineId}/collaborators/${person}`, owner).expect(204);
      else await call(timelines, 'post', `/api/timelines/${timelineId}/invite`, owner).send({ email: emails.get(person) }).expect(200);
    };
    const PRODUCER_SQL = `SELECT c.timeline_id, c.user_id FROM collaborators c JOIN timelines t ON t.id = c.timeline_id
                           WHERE c.role <> 'owner' AND c.status = 'active' AND c.user_id <> t.creator_id ORDER BY 1, 2`;
    const COPY_SQL = 'SELECT timeline_id, user_id FROM timeline_members ORDER BY 1, 2';
    let last = '';
    const settled = () =>
      until(async () => {
        const [want, have] = [JSON.stringify(await rows(timelines)(PRODUCER_SQL)), JSON.stringify(await rows(notifications)(COPY_SQL))];
        last = `timelines ${want}\nnotifications ${have}\nremovals ${JSON.stringify(await rows(notifications)('SELECT * FROM timeline_member_removals ORDER BY 1, 2'))}`;
        return want === have;
      }, 30_000).catch((error: Error) => {
        throw new Error(`${error.message}: ${last}`);
      });
    for (let i = 0; i < 30; i++) await someTeamChange();
    await settled();
    expect((await rows(notifications)(COPY_SQL)).length).toBeGreaterThan(0);

    // Emptied, with a stranger on a team and a team of a timeline long gone.
    const known = teams[0];
    await rows(notifications)('DELETE FROM timeline_members');
    await rows(notifications)('DELETE FROM timeline_member_removals');
    await rows(notifications)('INSERT INTO timeline_members (timeline_id, user_id) VALUES ($1, $2), ($3, $2)', [known![0], randomUUID(), randomUUID()]);

    let writing = true;
    let changes = 0;
    const writer = (async () => {
      while (writing) {
        await someTeamChange();
        changes += 1;
      }
    })();
    const lines = await rebuild('notifications', 'members');
    // The writer stops first: two changes at once may pick the same pair.
    writing = false;
    await writer;
    for (let i = 0; i < 5; i++) await someTeamChange();
    expect(changes).toBeGreaterThan(0);
    const finished = lines.find((line) => line.finished)!;
    expect(finished.error).toBe('');
    expect(Number(finished.removed)).toBe(1);
    await settled();

    // A replay taken before a change, applied after it, changes nothing; nor does an addition
    // older than a removal, arriving late.
    const [timelineId, owner] = teams[0]!;
    const before = (await requestRpc(bus, TimelinesRpc.Replay, { timelineIds: [timelineId], withMembers: true }, { timeoutMs: 5_000 })).members[0]!;
    await someTeamChangeOn(timelineId, owner);
    await settled();
    const now = await rows(notifications)(COPY_SQL);
    const live = notifications.app.get(DataSource);
    const notifier = new Notifier(new OutboxNotificationOutlet(new EventWriter()), new PreferenceRepository(live));
    await live.transaction((manager) => membersReadModel(bus, notifier).apply(manager, before));
    expect(await rows(notifications)(COPY_SQL)).toEqual(now);
    const [removal] = await rows(notifications)<{ timeline_id: string; user_id: string; version: string }>('SELECT timeline_id, user_id, version::text AS version FROM timeline_member_removals ORDER BY version DESC LIMIT 1');
    expect(removal).toBeDefined();
    const eventId = randomUUID();
    await bus.publish({
      subject: TimelinesEvents.CollaboratorAdded.subject,
      meta: { id: eventId, type: TimelinesEvents.CollaboratorAdded.type, version: TimelinesEvents.CollaboratorAdded.version, occurredAt: new Date().toISOString() },
      data: toBinary(TimelinesEvents.CollaboratorAdded.schema, create(TimelinesEvents.CollaboratorAdded.schema, { timelineId: removal!.timeline_id, userId: removal!.user_id, membersVersion: BigInt(removal!.version) - 1n })),
    });
    await until(async () => (await rows(notifications)('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length > 0, 15_000);
    expect(await rows(notifications)('SELECT 1 FROM timeline_members WHERE timeline_id = $1 AND user_id = $2', [removal!.timeline_id, removal!.user_id])).toEqual([]);

    async function someTeamChangeOn(id: string, by: string) {
      const person = people.find((p) => p !== by)!;
      const member = await rows(timelines)('SELECT 1 FROM collaborators WHERE timeline_id = $1 AND user_id = $2', [id, person]);
      if (member.length > 0) await call(timelines, 'delete', `/api/timelines/${id}/collaborators/${person}`, by).expect(204);
      else await call(timelines, 'post', `/api/timelines/${id}/invite`, by).send({ email: emails.get(person) }).expect(200);
    }
  }, 90_000);

  it('auth’s follower and following counts from empty, while people follow and unfollow: equal to the social service’s counts', async () => {
    const someFollow = async () => {
      const [follower, followee] = [pick(people), pick(people)];
      if (follower === followee) return;
      const following = await rows(social)('SELECT 1 FROM follows WHERE follower_id = $1 AND following_id = $2', [follower, followee]);
      const res = await call(social, following.length > 0 ? 'delete' : 'post', `/api/users/${followee}/follow`, follower);
      expect([200, 201, 204]).toContain(res.status);
    };
    const PRODUCER_SQL = `SELECT user_id AS id, followers_count, following_count, followers_version::text AS fv, following_version::text AS gv FROM follow_counts
                           WHERE followers_version > 0 OR following_version > 0 ORDER BY user_id`;
    const COPY_SQL = `SELECT id, followers_count, following_count, followers_version::text AS fv, following_version::text AS gv FROM users
                       WHERE followers_version > 0 OR following_version > 0 ORDER BY id`;
    let last = '';
    const settled = () =>
      until(async () => {
        const [want, have] = [JSON.stringify(await rows(social)(PRODUCER_SQL)), JSON.stringify(await rows(auth)(COPY_SQL))];
        last = `social ${want}\nauth ${have}`;
        return want === have;
      }, 30_000).catch((error: Error) => {
        throw new Error(`${error.message}: ${last}`);
      });
    for (let i = 0; i < 25; i++) await someFollow();
    await settled();
    expect((await rows(auth)(COPY_SQL)).length).toBeGreaterThan(0);

    await rows(auth)('UPDATE users SET followers_count = 0, following_count = 0, followers_version = 0, following_version = 0');
    // A count social does not have (the person's follows went while auth did not hear of it).
    const counted = new Set((await rows(social)<{ id: string }>('SELECT user_id AS id FROM follow_counts')).map((r) => r.id));
    const stale = (await rows(auth)<{ id: string }>('SELECT id FROM users ORDER BY id')).map((r) => r.id).find((id) => !counted.has(id));
    if (stale) await rows(auth)('UPDATE users SET followers_count = 5 WHERE id = $1', [stale]);

    let writing = true;
    let follows = 0;
    const writer = (async () => {
      while (writing) {
        await someFollow();
        follows += 1;
      }
    })();
    const lines = await rebuild('auth', 'follows');
    // The writer stops first: two changes at once may pick the same pair.
    writing = false;
    await writer;
    for (let i = 0; i < 5; i++) await someFollow();
    expect(follows).toBeGreaterThan(0);
    const finished = lines.find((line) => line.finished)!;
    expect(finished.error).toBe('');
    expect(Number(finished.removed)).toBe(stale ? 1 : 0);
    await settled();
    expect(await rows(auth)(COPY_SQL)).toEqual(await rows(social)(PRODUCER_SQL));
    if (stale) expect(await rows(auth)('SELECT followers_count FROM users WHERE id = $1', [stale])).toEqual([{ followers_count: 0 }]);
  }, 90_000);

  it('each service names the models it rebuilds', async () => {
    await expect(requestRpc(bus, ReadModelRebuild.rpc('social'), { model: 'nonsense' }, { timeoutMs: 5_000 })).rejects.toThrow(/\(it has timelines, people, media, account-deletions\)/);
    await expect(requestRpc(bus, ReadModelRebuild.rpc('timelines'), { model: 'nonsense' }, { timeoutMs: 5_000 })).rejects.toThrow(/\(it has people, likes, comments, alt-texts, moderation, account-deletions\)/);
    await expect(requestRpc(bus, ReadModelRebuild.rpc('auth'), { model: 'nonsense' }, { timeoutMs: 5_000 })).rejects.toThrow(/\(it has follows\)/);
    await expect(requestRpc(bus, ReadModelRebuild.rpc('notifications'), { model: 'nonsense' }, { timeoutMs: 5_000 })).rejects.toThrow(/\(it has timelines, people, members, videos, moderation, account-deletions\)/);
  });
});
