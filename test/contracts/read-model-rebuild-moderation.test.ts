import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, fromBinary } from '@bufbuild/protobuf';
import request from 'supertest';
import { DataSource } from 'typeorm';
import webpush from 'web-push';
import {
  accountDeletionsCopyReadModel,
  createEventBus,
  createLogger,
  createWorkQueue,
  deleteWorkStream,
  type EventBus,
  FileMailSender,
  moderationCopyReadModel,
  requestRpc,
  type RunningService,
  signIdentity,
  type WorkQueue,
} from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, type TestDatabase, type TestSchema, testBusPrefix, testNatsUrl } from '@timeliner/platform/testing';
import { AuthRpc, PendingAccountDeletionSchema, type ReadModelProgress, ReadModelProgressSchema, ReadModelRebuild, ReplayedModerationDecisionSchema, SocialRpc } from '@timeliner/proto';
import { authSchema, startAuthService } from '../../services/auth/src/index.js';
import { notificationsSchema, startNotificationsService } from '../../services/notifications/src/index.js';
import { searchSchema, startSearchService } from '../../services/search/src/index.js';
import { socialSchema, startSocialService } from '../../services/social/src/index.js';
import { startTimelinesService, timelinesSchema } from '../../services/timelines/src/index.js';
import { moderationReadModel } from '../../services/timelines/src/timelines/moderation-rebuild.js';

/**
 * The moderation copies (platform moderation-copy: what the timelines, notifications and search
 * services hide by) rebuilt from their sources while the system runs, all real (Postgres, NATS
 * JetStream): the moderation desk's decisions from the social service (SocialRpc.ReplayModeration)
 * and the pending account deletions from the auth service (AuthRpc.ReplayAccountDeletions; social
 * keeps a copy of those too). A copy lost, as a service deployed after the stream's retention
 * starts, is simulated by emptying the copies.
 */
const logger = createLogger('read-model-rebuild-moderation', process.env.TEST_LOG_LEVEL ?? 'silent');
type Name = 'auth' | 'timelines' | 'social' | 'notifications' | 'search';

let bus: EventBus;
let queue: WorkQueue;
let prefix: string;
let secret: string;
let work: string;
const dbs: TestDatabase[] = [];
const running = {} as Record<Name, RunningService>;
const timings: string[] = [];

interface Person { id: string; password: string; timelineId: string; title: string }
const moderator = {} as Person;
const stranger = {} as Person;
/** Their timeline is hidden by the moderators. */
const hidden = {} as Person;
/** Their account is suspended for a week. */
const suspended = {} as Person;
/** They asked for their account to be deleted. */
const leaving = {} as Person;

function call(name: Name, method: 'get' | 'post' | 'patch', path: string, userId?: string, ip = '198.51.100.71') {
  const requestId = `modcopies-${randomBytes(6).toString('hex')}`;
  const headers = signIdentity(secret, { userId, sessionId: userId ? randomUUID() : undefined, clientIp: ip }, { requestId, method: method.toUpperCase(), url: path });
  return request(running[name].url)[method](path).set(headers).set('x-request-id', requestId);
}
const rows = async <T>(name: Name, sql: string, params: unknown[] = []): Promise<T[]> => (await running[name].app.get(DataSource).query(sql, params)) as T[];

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function database(label: string, schema: TestSchema): Promise<string> {
  const db = await createTestDatabase(label, { schemas: [schema] });
  dbs.push(db);
  return db.url;
}

/** Asks a service to rebuild one model, as `npm run read-model -- rebuild <service> --model <model>` does; resolves with the progress lines once finished. */
async function rebuild(service: Name, model: string): Promise<ReadModelProgress[]> {
  const lines: ReadModelProgress[] = [];
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const sub = await bus.subscribe(ReadModelRebuild.progressSubject(service), (message) => {
    const progress = fromBinary(ReadModelProgressSchema, message.data);
    lines.push(progress);
    if (progress.finished) finished();
  });
  const started = performance.now();
  try {
    // The previous rebuild of the service lets go of its lock just after its last progress line.
    let reply = await requestRpc(bus, ReadModelRebuild.rpc(service), { model }, { timeoutMs: 5_000 });
    for (let tries = 0; reply.alreadyRunning && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reply = await requestRpc(bus, ReadModelRebuild.rpc(service), { model }, { timeoutMs: 5_000 });
    }
    expect(reply.alreadyRunning).toBe(false);
    expect(reply.models).toEqual([model]);
    await done;
  } finally {
    await sub.unsubscribe();
  }
  const last = lines.at(-1)!;
  timings.push(`${service} --model ${model}: ${Math.round(performance.now() - started)} ms, ${last.done} replayed, ${last.removed} removed`);
  expect(last.error).toBe('');
  expect(last.finished).toBe(true);
  return lines;
}

/** The services keeping a moderation copy and the models that rebuild it. */
const COPIES: Array<{ name: Name; models: string[] }> = [
  { name: 'timelines', models: ['moderation', 'account-deletions'] },
  { name: 'notifications', models: ['moderation', 'account-deletions'] },
  { name: 'search', models: ['moderation', 'account-deletions'] },
  { name: 'social', models: ['account-deletions'] },
];
const COPY_SQL = 'SELECT subject_type, subject_id, hidden, until, version::text AS version FROM moderation_hidden ORDER BY subject_type, subject_id';

/** What the stranger sees of each person's timeline: on its page (timelines) and in search. */
async function strangerSees(person: Person): Promise<{ page: number; search: boolean }> {
  const page = (await call('timelines', 'get', `/api/timelines/${person.timelineId}`, stranger.id)).status;
  const res = await call('search', 'get', `/api/search/enhanced?q=${encodeURIComponent(person.title)}&type=timelines`, stranger.id).expect(200);
  return { page, search: JSON.stringify(res.body).includes(person.timelineId) };
}

beforeAll(async () => {
  prefix = testBusPrefix('rebuildmoderation');
  bus = await createEventBus({ natsUrl: testNatsUrl(), prefix, logger });
  queue = await createWorkQueue({ natsUrl: testNatsUrl(), prefix, logger });
  secret = randomBytes(32).toString('hex');
  work = await mkdtemp(join(tmpdir(), 'rebuild-moderation-'));
  const common = { bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' };
  running.auth = await startAuthService({ ...common, databaseUrl: await database('modcopiesauth', authSchema), mail: new FileMailSender({ dir: join(work, 'mail') }) });
  running.timelines = await startTimelinesService({ ...common, databaseUrl: await database('modcopiestimelines', timelinesSchema), mail: new FileMailSender({ dir: join(work, 'mail') }) });
  running.social = await startSocialService({ ...common, databaseUrl: await database('modcopiessocial', socialSchema) });
  running.notifications = await startNotificationsService({
    ...common,
    databaseUrl: await database('modcopiesnotifications', notificationsSchema),
    workQueue: queue,
    vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@timeliner.test' },
  });
  running.search = await startSearchService({ ...common, databaseUrl: await database('modcopiessearch', searchSchema) });

  const register = async (person: Person, name: string, ip: string) => {
    person.password = `Pw-${randomBytes(12).toString('hex')}`;
    const handle = `${name}_${randomBytes(3).toString('hex')}`;
    person.id = (await call('auth', 'post', '/api/auth/register', undefined, ip).send({ username: handle, email: `${handle}@example.com`, password: person.password, displayName: name }).expect(201)).body.user.id as string;
  };
  await register(moderator, 'mo', '198.51.100.72');
  await register(stranger, 'sam', '198.51.100.73');
  await register(hidden, 'hana', '198.51.100.74');
  await register(suspended, 'sid', '198.51.100.75');
  await register(leaving, 'lea', '198.51.100.76');
  for (const name of ['social', 'timelines', 'search', 'notifications'] as const) {
    await until(async () => (await rows<{ n: number }>(name, 'SELECT count(*)::int AS n FROM users'))[0]!.n === 5, 15_000, `${name} to know the people`);
  }
  for (const person of [hidden, suspended, leaving]) {
    person.title = `Lighthouse ${randomBytes(4).toString('hex')}`;
    person.timelineId = (await call('timelines', 'post', '/api/timelines', person.id).send({ title: person.title, description: 'Along the coast' }).expect(201)).body.id as string;
    await call('timelines', 'patch', `/api/timelines/${person.timelineId}`, person.id).send({ visibility: 'public', status: 'published' }).expect(200);
  }
  await until(async () => (await rows<{ n: number }>('search', 'SELECT count(*)::int AS n FROM timelines WHERE listed'))[0]!.n === 3, 15_000, 'search to list the timelines');
  for (const person of [hidden, suspended, leaving]) expect(await strangerSees(person)).toEqual({ page: 200, search: true });

  // The operator made Mo a moderator (scripts/admin.mjs); Mo hides a timeline and suspends an account, Lea asks to be deleted.
  await rows('social', `INSERT INTO staff_roles (user_id, role) VALUES ($1, 'moderator')`, [moderator.id]);
  await call('social', 'post', `/api/moderation/items/timeline/${hidden.timelineId}/decision`, moderator.id).send({ action: 'hide', reason: 'Against the rules' }).expect(201);
  await call('social', 'post', `/api/moderation/users/${suspended.id}/suspension`, moderator.id).send({ reason: 'Harassment', days: 7 }).expect(201);
  await call('auth', 'post', '/api/auth/account/deletion', leaving.id).send({ password: leaving.password }).expect(202);
  const full = (name: Name) => async () => (await rows<{ n: number }>(name, 'SELECT count(*)::int AS n FROM moderation_hidden WHERE hidden'))[0]!.n === (name === 'social' ? 1 : 3);
  for (const { name } of COPIES) await until(full(name), 15_000, `${name}'s moderation copy`);
}, 120_000);

afterAll(async () => {
  if (timings.length > 0) console.log(`moderation copies rebuilt:\n${timings.join('\n')}`);
  for (const name of ['search', 'notifications', 'social', 'timelines', 'auth'] as const) await running[name]?.close();
  await queue?.close();
  await bus?.close();
  await deleteBusStreams(testNatsUrl(), prefix).catch(() => undefined);
  await deleteWorkStream(testNatsUrl(), prefix).catch(() => undefined);
  for (const db of dbs) await db.drop();
  await rm(work, { recursive: true, force: true });
}, 60_000);

describe('rebuilding the moderation copies from the desk’s decisions and the pending deletions', () => {
  it('social answers the standing decisions page by page in key order, by kind and by subject; auth the pending deletions', async () => {
    const first = await requestRpc(bus, SocialRpc.ReplayModeration, { limit: 1 }, { timeoutMs: 5_000 });
    expect(Number(first.total)).toBe(2);
    const rest = await requestRpc(bus, SocialRpc.ReplayModeration, { after: first.decisions[0]!.subject, limit: 1 }, { timeoutMs: 5_000 });
    expect(Number(rest.total)).toBe(0);
    expect([...first.decisions, ...rest.decisions].map((d) => ({ type: d.subject?.subjectType, id: d.subject?.subjectId, hidden: d.hidden, until: Boolean(d.until), author: d.authorId }))).toEqual([
      { type: 'account', id: suspended.id, hidden: true, until: true, author: suspended.id },
      { type: 'timeline', id: hidden.timelineId, hidden: true, until: false, author: hidden.id },
    ]);
    const last = await requestRpc(bus, SocialRpc.ReplayModeration, { after: rest.decisions[0]!.subject, limit: 1 }, { timeoutMs: 5_000 });
    expect(last.decisions).toEqual([]);
    const timelinesOnly = await requestRpc(bus, SocialRpc.ReplayModeration, { subjectTypes: ['timeline'] }, { timeoutMs: 5_000 });
    expect(timelinesOnly.decisions.map((d) => d.subject?.subjectId)).toEqual([hidden.timelineId]);
    expect(Number(timelinesOnly.total)).toBe(1);
    const bySubject = await requestRpc(bus, SocialRpc.ReplayModeration, { subjects: [{ subjectType: 'account', subjectId: suspended.id }, { subjectType: 'account', subjectId: randomUUID() }] }, { timeoutMs: 5_000 });
    expect(bySubject.decisions.map((d) => d.subject?.subjectId)).toEqual([suspended.id]);

    const deletions = await requestRpc(bus, AuthRpc.ReplayAccountDeletions, {}, { timeoutMs: 5_000 });
    expect(Number(deletions.total)).toBe(1);
    expect(deletions.deletions.map((d) => d.userId)).toEqual([leaving.id]);
    // The version the event carried: the copies hold the same.
    const [copied] = await rows<{ version: string }>('timelines', `SELECT version::text AS version FROM moderation_hidden WHERE subject_type = 'account_deletion'`);
    expect(deletions.deletions[0]!.version.toString()).toBe(copied!.version);
    expect((await requestRpc(bus, AuthRpc.ReplayAccountDeletions, { userIds: [leaving.id, stranger.id] }, { timeoutMs: 5_000 })).deletions.map((d) => d.userId)).toEqual([leaving.id]);
  });

  it('copies emptied show the stranger what the moderators took out; rebuilt, they equal the copies built from events and hide it again', async () => {
    const fromEvents = new Map<Name, unknown[]>();
    for (const { name } of COPIES) fromEvents.set(name, await rows(name, COPY_SQL));
    for (const person of [hidden, suspended, leaving]) expect(await strangerSees(person)).toEqual({ page: 404, search: false });

    for (const { name } of COPIES) await rows(name, 'DELETE FROM moderation_hidden');
    for (const person of [hidden, suspended, leaving]) expect(await strangerSees(person)).toEqual({ page: 200, search: true });

    for (const { name, models } of COPIES) {
      for (const model of models) {
        const last = (await rebuild(name, model)).at(-1)!;
        expect(Number(last.done)).toBe(model === 'account-deletions' ? 1 : 2);
        expect(Number(last.removed)).toBe(0);
      }
      expect(await rows(name, COPY_SQL)).toEqual(fromEvents.get(name));
    }
    for (const person of [hidden, suspended, leaving]) expect(await strangerSees(person)).toEqual({ page: 404, search: false });
  }, 60_000);

  it('a replayed decision or deletion older than the copy’s changes nothing', async () => {
    const [row] = await rows<{ version: string }>('timelines', `SELECT version::text AS version FROM moderation_hidden WHERE subject_type = 'timeline' AND subject_id = $1`, [hidden.timelineId]);
    const before = await rows('timelines', COPY_SQL);
    const sensitive = await rows('timelines', 'SELECT sensitive FROM timelines WHERE id = $1', [hidden.timelineId]);
    const older = BigInt(row!.version) - 1n;
    await running.timelines.app.get(DataSource).transaction(async (manager) => {
      await moderationReadModel(bus).apply(manager, create(ReplayedModerationDecisionSchema, { subject: { subjectType: 'timeline', subjectId: hidden.timelineId }, hidden: false, sensitive: true, version: older, authorId: hidden.id }));
      await moderationReadModel(bus).apply(manager, create(ReplayedModerationDecisionSchema, { subject: { subjectType: 'account', subjectId: suspended.id }, hidden: false, version: 1n, authorId: suspended.id }));
    });
    expect(await rows('timelines', COPY_SQL)).toEqual(before);
    expect(await rows('timelines', 'SELECT sensitive FROM timelines WHERE id = $1', [hidden.timelineId])).toEqual(sensitive);

    // Search's copy keeps no item but timelines: a replayed post changes nothing there either.
    const searchBefore = await rows('search', COPY_SQL);
    await running.search.app.get(DataSource).transaction(async (manager) => {
      const model = moderationCopyReadModel(bus, { subjectTypes: ['timeline', 'account'] });
      await model.apply(manager, create(ReplayedModerationDecisionSchema, { subject: { subjectType: 'post', subjectId: randomUUID() }, hidden: true, version: 999_999n }));
      await model.apply(manager, create(ReplayedModerationDecisionSchema, { subject: { subjectType: 'timeline', subjectId: hidden.timelineId }, hidden: false, version: older }));
    });
    expect(await rows('search', COPY_SQL)).toEqual(searchBefore);

    const [deletion] = await rows<{ version: string }>('notifications', `SELECT version::text AS version FROM moderation_hidden WHERE subject_type = 'account_deletion'`);
    await rows('notifications', `UPDATE moderation_hidden SET hidden = false WHERE subject_type = 'account_deletion'`);
    await running.notifications.app.get(DataSource).transaction((manager) =>
      accountDeletionsCopyReadModel(bus).apply(manager, create(PendingAccountDeletionSchema, { userId: leaving.id, version: BigInt(deletion!.version) - 1n })),
    );
    expect(await rows('notifications', `SELECT hidden, version::text AS version FROM moderation_hidden WHERE subject_type = 'account_deletion'`)).toEqual([{ hidden: false, version: deletion!.version }]);
    await rows('notifications', `UPDATE moderation_hidden SET hidden = true WHERE subject_type = 'account_deletion'`);
  });

  it('a hidden row whose decision the source no longer has (a lift or a cancellation whose event was lost) becomes not hidden', async () => {
    // Lifted and cancelled at the sources, the events never heard of by the copies.
    await rows('social', 'DELETE FROM account_suspensions WHERE user_id = $1', [suspended.id]);
    await rows('auth', 'DELETE FROM account_deletions WHERE user_id = $1', [leaving.id]);
    // And one the copies kept of an item the source never had.
    const ghost = randomUUID();
    for (const { name } of COPIES.filter((copy) => copy.name !== 'social')) {
      await rows(name, `INSERT INTO moderation_hidden (subject_type, subject_id, hidden, until, version) VALUES ('timeline', $1, true, NULL, 1)`, [ghost]);
    }
    for (const person of [suspended, leaving]) expect(await strangerSees(person)).toEqual({ page: 404, search: false });

    for (const { name, models } of COPIES) {
      const before = await rows<{ subject_type: string; subject_id: string; version: string }>(name, COPY_SQL);
      for (const model of models) {
        const last = (await rebuild(name, model)).at(-1)!;
        expect(Number(last.removed)).toBe(model === 'account-deletions' ? 1 : 2);
      }
      // As the lift and the cancellation would: not hidden, nothing else changed (the versions stay, so a late older event never brings them back).
      const lifted = (row: { subject_type: string; subject_id: string }) => [suspended.id, leaving.id, ghost].includes(row.subject_id);
      expect(await rows(name, COPY_SQL)).toEqual(before.map((row) => (lifted(row) ? { ...row, hidden: false, until: null } : row)));
      expect(await rows(name, 'SELECT subject_type, subject_id FROM moderation_hidden WHERE hidden')).toEqual(name === 'social' ? [] : [{ subject_type: 'timeline', subject_id: hidden.timelineId }]);
    }
    for (const person of [suspended, leaving]) expect(await strangerSees(person)).toEqual({ page: 200, search: true });
    expect(await strangerSees(hidden)).toEqual({ page: 404, search: false });

    // Run again, everything is as the sources say: nothing to remove.
    const again = (await rebuild('timelines', 'moderation')).at(-1)!;
    expect(Number(again.removed)).toBe(0);
    expect(Number(again.done)).toBe(1);
  }, 60_000);
});
