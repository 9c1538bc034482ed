import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import webpush from 'web-push';
import { createEventBus, createLogger, createWorkQueue, deleteWorkStream, type EventBus, FileMailSender, FsObjectStorage, type RunningService, signIdentity, type WorkQueue } from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, type TestDatabase, type TestSchema, testBusPrefix, testNatsUrl } from '@timeliner/platform/testing';
import { AccountDeletionService, authSchema, startAuthService } from '../../services/auth/src/index.js';
import { mediaSchema, type RunningMediaService, startMediaService } from '../../services/media/src/index.js';
import { notificationsSchema, startNotificationsService } from '../../services/notifications/src/index.js';
import { searchSchema, startSearchService } from '../../services/search/src/index.js';
import { socialSchema, startSocialService } from '../../services/social/src/index.js';
import { startTimelinesService, timelinesSchema } from '../../services/timelines/src/index.js';

/**
 * Deleting an account across every service, all real (Postgres, NATS JetStream, file storage):
 * after the grace period the auth service purges the account and publishes UserDeleted; every
 * service applies it. Then no row of any table of any service's schema names the person (their
 * id, username, display name or e-mail address), not even the moderators' records about them (a
 * report's note, a decision's reason, their appeal: the audit log keeps what was done and when,
 * the words become "(removed with the account)"), no object in storage does (by key or by content), and the
 * counts they were part of on other people's things went down with the usual events.
 *
 * Every table is searched but `migrations`, both as text and, in binary columns (the outbox's
 * protobuf payloads), for the names' bytes. Each service's `outbox` keeps the events it sent for a
 * while; applying UserDeleted asks its relay to erase the dispatched rows naming the person once
 * nothing naming them waits to be sent (platform bus/outbox-erasure.ts), so the search waits
 * (bounded) for the last events of the deletion to go out and be erased. Social's
 * `deleted_users`, which keeps a late event from bringing the account back, holds a salted digest
 * of the id, not the id.
 */
const logger = createLogger('account-deletion', process.env.TEST_LOG_LEVEL ?? 'silent');
type Name = 'auth' | 'timelines' | 'social' | 'notifications' | 'media' | 'search';

let bus: EventBus;
let queue: WorkQueue;
let prefix: string;
let secret: string;
let work: string;
let storage: FsObjectStorage;
const dbs: TestDatabase[] = [];
const running = {} as Record<Name, RunningService>;
let media: RunningMediaService;

function call(name: Name, method: 'get' | 'post' | 'put' | 'delete', path: string, userId?: string) {
  const requestId = `del-${randomBytes(6).toString('hex')}`;
  const headers = signIdentity(secret, { userId, sessionId: userId ? randomUUID() : undefined, clientIp: '198.51.100.66' }, { requestId, method: method.toUpperCase(), url: path });
  return request(running[name].url)[method](path).set(headers).set('x-request-id', requestId);
}
const rows = async <T>(name: Name, sql: string, params: unknown[] = []): Promise<T[]> => (await running[name].app.get(DataSource).query(sql, params)) as T[];
const ok = (res: { status: number }) => expect(res.status).toBeLessThan(300);

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
async function database(label: string, schema: TestSchema): Promise<string> {
  const db = await createTestDatabase(label, { schemas: [schema] });
  dbs.push(db);
  return db.url;
}

interface Person { id: string; username: string; displayName: string; email: string; password: string }
const ada = {} as Person;
const bob = {} as Person;
const made = {} as { trip: string; bobsTimeline: string; adaPost: string; bobPost: string; adaItems: string[]; adaItemInBobs: string; bobItem: string };

async function register(person: Person, handle: string, displayName: string): Promise<void> {
  person.username = handle;
  person.displayName = displayName;
  person.email = `${handle}@example.com`;
  person.password = `Pw-${randomBytes(12).toString('hex')}`;
  const res = await call('auth', 'post', '/api/auth/register').send({ username: handle, email: person.email, password: person.password, displayName });
  expect(res.status).toBe(201);
  person.id = res.body.user.id as string;
}

/** An item as an upload leaves it: its original (which says who made it, as a file might) in storage, its row completed. */
async function addItem(timelineId: string, uploader: Person, position: number): Promise<string> {
  const id = randomUUID();
  await storage.put(`media/${id}/original`, Buffer.from(`made by ${uploader.username} <${uploader.email}> ${randomBytes(2000).toString('hex')}`), { contentType: 'video/mp4' });
  await storage.put(`media/${id}/thumbnail.jpg`, randomBytes(500), { contentType: 'image/jpeg' });
  await rows('media',
    `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, duration, file_size, mime_type, status, position, uploaded_at)
     VALUES ($1, $2, $3, $4, 'clip.mp4', 'clip', 'video', 3, 4000, 'video/mp4', 'completed', $5, now())`,
    [id, timelineId, uploader.id, `media/${id}/original`, position]);
  return id;
}

beforeAll(async () => {
  prefix = testBusPrefix('acctdelete');
  bus = await createEventBus({ natsUrl: testNatsUrl(), prefix, logger });
  queue = await createWorkQueue({ natsUrl: testNatsUrl(), prefix, logger });
  secret = randomBytes(32).toString('hex');
  work = await mkdtemp(join(tmpdir(), 'account-deletion-test-'));
  storage = new FsObjectStorage({ root: join(work, 'storage') });
  await storage.init();
  const common = { bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' };
  running.auth = await startAuthService({ ...common, databaseUrl: await database('delauth', authSchema), mail: new FileMailSender({ dir: join(work, 'mail') }) });
  running.timelines = await startTimelinesService({ ...common, databaseUrl: await database('deltimelines', timelinesSchema), mail: new FileMailSender({ dir: join(work, 'mail') }) });
  running.social = await startSocialService({ ...common, databaseUrl: await database('delsocial', socialSchema) });
  running.notifications = await startNotificationsService({
    ...common, databaseUrl: await database('delnotifications', notificationsSchema), workQueue: queue, vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@timeliner.test' },
  });
  media = await startMediaService({ ...common, databaseUrl: await database('delmedia', mediaSchema), storage, workQueue: queue, sweepIntervalMs: 0 });
  running.media = media;
  running.search = await startSearchService({ ...common, databaseUrl: await database('delsearch', searchSchema) });

  await register(ada, `ada_${randomBytes(3).toString('hex')}`, 'Ada Lovelace');
  await register(bob, `bob_${randomBytes(3).toString('hex')}`, 'Bob Babbage');
  for (const name of ['social', 'timelines', 'search', 'notifications'] as const) {
    await until(async () => (await rows<{ n: number }>(name, 'SELECT count(*)::int AS n FROM users WHERE id = ANY($1::uuid[])', [[ada.id, bob.id]]))[0]!.n === 2, 15_000, `${name} to know the people`);
  }

  const timeline = async (owner: Person, title: string) => (await call('timelines', 'post', '/api/timelines', owner.id).send({ title, description: `About ${title}`, visibility: 'public' }).expect(201)).body.id as string;
  made.trip = await timeline(ada, 'Trip to the coast');
  made.bobsTimeline = await timeline(bob, 'Engines');
  made.adaItems = [await addItem(made.trip, ada, 0), await addItem(made.trip, ada, 1)];
  // Ada is on Bob's team and put an item in his timeline.
  await rows('timelines', `INSERT INTO collaborators (id, timeline_id, user_id, user_name, role, status) VALUES (gen_random_uuid(), $1, $2, 'Ada Lovelace', 'editor', 'active')`, [made.bobsTimeline, ada.id]);
  made.adaItemInBobs = await addItem(made.bobsTimeline, ada, 0);
  made.bobItem = await addItem(made.bobsTimeline, bob, 1);
  // Her profile picture and a data archive.
  await storage.put(`avatars/${ada.id}/1.jpg`, randomBytes(800), { contentType: 'image/jpeg' });
  await rows('media', `INSERT INTO avatars (user_id, version, object_key, size) VALUES ($1, 1, $2, 800)`, [ada.id, `avatars/${ada.id}/1.jpg`]);
  const archive = randomUUID();
  await storage.put(`data-exports/${archive}/timeliner-data.zip`, Buffer.from(`{"username":"${ada.username}","email":"${ada.email}"}`), { contentType: 'application/zip' });
  await rows('media', `INSERT INTO data_exports (id, user_id, status, phase, progress, object_key, file_name, size_bytes) VALUES ($1, $2, 'completed', 'done', 100, $3, 'timeliner-data.zip', 10)`,
    [archive, ada.id, `data-exports/${archive}/timeliner-data.zip`]);

  made.adaPost = (await call('social', 'post', '/api/posts', ada.id).send({ content: `Hello from the coast #sea, says @${ada.username}` }).expect(201)).body.id;
  made.bobPost = (await call('social', 'post', '/api/posts', bob.id).send({ content: 'Difference engine news #engines' }).expect(201)).body.id;
  ok(await call('social', 'post', `/api/posts/${made.bobPost}/comments`, ada.id).send({ content: 'Splendid!' }));
  ok(await call('social', 'post', `/api/posts/${made.adaPost}/comments`, bob.id).send({ content: 'Lovely' }));
  ok(await call('social', 'post', `/api/posts/${made.bobPost}/like`, ada.id));
  ok(await call('social', 'post', `/api/posts/${made.bobPost}/bookmark`, ada.id));
  ok(await call('social', 'post', `/api/timelines/${made.bobsTimeline}/like`, ada.id));
  ok(await call('social', 'post', `/api/timelines/${made.bobsTimeline}/comments`, ada.id).send({ content: 'Fine engines' }));
  ok(await call('social', 'post', `/api/users/${bob.id}/follow`, ada.id));
  ok(await call('social', 'post', `/api/users/${ada.id}/follow`, bob.id));
  const collection = (await call('social', 'post', '/api/collections', ada.id).send({ name: 'Favourites', description: 'The best' }).expect(201)).body.id as string;
  ok(await call('social', 'post', `/api/collections/${collection}/timelines`, ada.id).send({ timelineId: made.bobsTimeline }));
  ok(await call('notifications', 'put', '/api/notifications/preferences', ada.id).send({ likes: { push: false } }));
  ok(await call('search', 'post', '/api/search/history', ada.id).send({ query: 'steam engines' }));
  // The moderators once warned her (the audit log keeps the decision, not who nor why).
  await rows('social', `INSERT INTO moderation_actions (id, moderator_id, action, subject_user_id, reason) VALUES (gen_random_uuid(), $1, 'warn', $2, 'Be kind')`, [bob.id, ada.id]);
  // Records about someone else whose words name her: a warning to Bob, a report of his post.
  await rows('social', `INSERT INTO moderation_actions (id, moderator_id, action, subject_user_id, reason) VALUES (gen_random_uuid(), $1, 'warn', $1, $2)`, [bob.id, `Copied from ${ada.email.toUpperCase()}`]);
  await rows('social', `INSERT INTO content_reports (id, reporter_id, content_type, content_id, reason, description, created_at) VALUES (gen_random_uuid(), $1, 'post', $2, 'spam', $3, now() - interval '1 hour')`,
    [bob.id, made.bobPost, `the same as @${ada.username} wrote`]);
  // Bob, a moderator, reported her post with a note naming her, warned her with a reason naming her; she appealed in her own words.
  await rows('social', `INSERT INTO staff_roles (user_id, role) VALUES ($1, 'moderator')`, [bob.id]);
  ok(await call('social', 'post', '/api/reports', bob.id).send({ contentType: 'post', contentId: made.adaPost, reason: 'other', description: `${ada.username} <${ada.email}> posts this everywhere` }));
  const warning = (await call('social', 'post', `/api/moderation/items/post/${made.adaPost}/decision`, bob.id).send({ action: 'warn', reason: `Ada Lovelace (@${ada.username}) was told before` }).expect(201)).body.id as string;
  ok(await call('social', 'post', `/api/moderation-notices/${warning}/appeal`, ada.id).send({ text: `I am Ada Lovelace (${ada.email}); this is unfair` }));

  // Everything has reached everyone: Bob was told of her like, follow and comments; his counts include her.
  await until(async () => (await rows<{ n: number }>('notifications', 'SELECT count(*)::int AS n FROM notification_activities WHERE actor_id = $1', [ada.id]))[0]!.n >= 3, 20_000, 'Bob to be told');
  await until(async () => (await rows<{ n: number }>('auth', 'SELECT followers_count AS n FROM users WHERE id = $1', [bob.id]))[0]!.n === 1, 20_000, 'Bob\'s follower count');
  await until(async () => (await rows<{ n: number }>('search', 'SELECT count(*)::int AS n FROM hashtag_uses WHERE user_id = $1', [ada.id]))[0]!.n >= 1, 20_000, 'her hashtag in search');
}, 180_000);

afterAll(async () => {
  for (const name of ['search', 'media', 'notifications', 'social', 'timelines', 'auth'] as const) await running[name]?.close();
  await queue?.close();
  await bus?.close();
  await deleteBusStreams(testNatsUrl(), prefix).catch(() => undefined);
  await deleteWorkStream(testNatsUrl(), prefix).catch(() => undefined);
  for (const db of dbs) await db.drop();
  await rm(work, { recursive: true, force: true });
}, 60_000);

/** Every row of every table of every service's schema that names the person, as "service.table: row". */
async function rowsNaming(person: Person): Promise<string[]> {
  const found: string[] = [];
  const names = [person.id, person.username, person.displayName, person.email];
  const patterns = names.map((n) => `%${n}%`);
  for (const name of Object.keys(running) as Name[]) {
    const tables = await rows<{ table_name: string }>(name, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`);
    for (const { table_name: table } of tables) {
      if (table === 'migrations') continue;
      // A bytea column shows as hex in the row's text: its bytes are searched for the names as well.
      const binary = await rows<{ column_name: string }>(name, `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND data_type = 'bytea'`, [table]);
      const inBytes = binary.map(({ column_name: column }) => ` OR EXISTS (SELECT 1 FROM unnest($2::text[]) n WHERE position(convert_to(n, 'UTF8') in t."${column}") > 0)`).join('');
      const hits = await rows<Record<string, unknown>>(name, `SELECT * FROM "${table}" t WHERE t::text ILIKE ANY ($1)${inBytes}`, binary.length > 0 ? [patterns, names] : [patterns]);
      for (const hit of hits) found.push(`${name}.${table}: ${JSON.stringify(hit, (key, value: unknown) => (key === 'payload' ? '(bytes)' : value))}`);
    }
  }
  return found;
}

/** Every object in storage whose key or content names the person. */
async function objectsNaming(person: Person): Promise<string[]> {
  const found: string[] = [];
  for await (const object of storage.list('')) {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.get(object.key)) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('latin1');
    if ([person.id, person.username, person.email].some((name) => object.key.includes(name) || text.includes(name))) found.push(object.key);
  }
  return found;
}

describe('Delete the account', () => {
  it('finds the person everywhere before (the search can see them)', async () => {
    const before = await rowsNaming(ada);
    for (const where of ['auth.users', 'auth.outbox', 'social.outbox', 'timelines.timelines', 'timelines.collaborators', 'social.posts', 'social.follows', 'notifications.notification_activities', 'search.users', 'search.search_history', 'media.media', 'media.avatars']) {
      expect(before.some((row) => row.startsWith(`${where}: `))).toBe(true);
    }
    // Her two items, her item in Bob's timeline (an original and a thumbnail each, the originals say her name), her picture, her archive.
    expect((await objectsNaming(ada)).sort()).toEqual(expect.arrayContaining([`avatars/${ada.id}/1.jpg`, ...[...made.adaItems, made.adaItemInBobs].map((id) => `media/${id}/original`)]));
  });

  it('after the grace period, no row in any schema and no object in storage names the person; the counts they were in went down', async () => {
    await call('auth', 'post', '/api/auth/account/deletion', ada.id).send({ password: ada.password }).expect(202);
    // Nothing goes during the grace period.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await rows('social', 'SELECT 1 FROM posts WHERE id = $1', [made.adaPost])).length).toBe(1);

    expect(await running.auth.app.get(AccountDeletionService).purgeDue(new Date(Date.now() + 31 * 24 * 3600_000))).toBe(1);

    // The things she took back reach everyone (Bob's counts go down), then the second UserDeleted, an hour on, sweeps what those events wrote.
    await until(async () => (await rows<{ n: number }>('auth', 'SELECT followers_count AS n FROM users WHERE id = $1', [bob.id]))[0]!.n === 0, 30_000, 'Bob\'s follower count to go down');
    await until(async () => (await rows<{ n: number }>('social', 'SELECT likes_count AS n FROM posts WHERE id = $1', [made.bobPost]))[0]?.n === 0, 30_000, 'Bob\'s post likes to go down');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await running.auth.app.get(AccountDeletionService).purgeDue(new Date(Date.now() + 31 * 24 * 3600_000 + 2 * 3600_000));

    let left: string[] = [];
    let objects: string[] = [];
    const deadline = Date.now() + 60_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 500));
      left = await rowsNaming(ada);
      objects = await objectsNaming(ada);
    } while ((left.length > 0 || objects.length > 0) && Date.now() < deadline);
    expect(left).toEqual([]);
    expect(objects).toEqual([]);
    // Social still knows the account was deleted (so a late event cannot bring it back), by the digest alone.
    expect(await rows('social', `SELECT 1 FROM deleted_users WHERE digest = (SELECT sha256(salt || convert_to($1::uuid::text, 'UTF8')) FROM deleted_users_key)`, [ada.id])).toHaveLength(1);

    // Bob's things are still there, with the counts she was part of taken back.
    expect(await rows('social', 'SELECT likes_count, comments_count FROM posts WHERE id = $1', [made.bobPost])).toEqual([{ likes_count: 0, comments_count: 0 }]);
    expect((await rows<{ following_count: number }>('auth', 'SELECT following_count FROM users WHERE id = $1', [bob.id]))[0]!.following_count).toBe(0);
    expect(await rows('media', 'SELECT id FROM media WHERE timeline_id = $1', [made.bobsTimeline])).toEqual([{ id: made.bobItem }]);
    expect(await storage.stat(`media/${made.bobItem}/original`)).not.toBeNull();
    expect(await rows('timelines', 'SELECT id FROM timelines WHERE id = ANY($1::uuid[])', [[made.trip, made.bobsTimeline]])).toEqual([{ id: made.bobsTimeline }]);
    expect((await call('auth', 'post', '/api/auth/login').send({ login: ada.username, password: ada.password })).status).toBe(401);
    // The audit entries stay, saying what was done and when but no longer whom it was about nor the words about her; still append-only otherwise.
    const removed = '(removed with the account)';
    expect(await rows('social', `SELECT moderator_id, subject_user_id, action, content_type, reason FROM moderation_actions ORDER BY created_at, id`)).toEqual([
      { moderator_id: bob.id, subject_user_id: null, action: 'warn', content_type: null, reason: removed },
      { moderator_id: bob.id, subject_user_id: bob.id, action: 'warn', content_type: null, reason: removed },
      { moderator_id: bob.id, subject_user_id: null, action: 'warn', content_type: 'post', reason: removed },
      { moderator_id: null, subject_user_id: null, action: 'appeal', content_type: 'post', reason: removed },
    ]);
    expect(await rows('social', `SELECT reporter_id, reason, description, moderator_notes, status FROM content_reports ORDER BY created_at`)).toEqual([
      { reporter_id: bob.id, reason: 'spam', description: removed, moderator_notes: null, status: 'pending' },
      { reporter_id: bob.id, reason: 'other', description: removed, moderator_notes: removed, status: 'resolved' },
    ]);
    await expect(rows('social', `UPDATE moderation_actions SET reason = 'changed' WHERE action = 'warn'`)).rejects.toThrow('append-only');
    await expect(rows('social', `UPDATE moderation_actions SET action = 'hide' WHERE action = 'warn'`)).rejects.toThrow('append-only');
    await expect(rows('social', `DELETE FROM moderation_actions WHERE action = 'warn'`)).rejects.toThrow('append-only');
  }, 180_000);
});
