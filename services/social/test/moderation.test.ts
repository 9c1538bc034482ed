import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { fromBinary } from '@bufbuild/protobuf';
import { deleteBusStreams, testNatsUrl } from '@timeliner/platform/testing';
import { AccountSuspensionChangedSchema, ContentModeratedSchema, ModerationNoticeSchema } from '@timeliner/proto';
import { type SocialHarness, startHarness, waitFor } from './harness.js';
import { moderationRoutes } from './moderation-routes.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

/**
 * The moderation desk on real Postgres and NATS: roles only through the operator's command, every
 * desk route refused to everyone else, the decisions and what they change (the post's reads, the
 * events the other services apply, the notices), the append-only audit log, and appeals.
 */
describe('moderation desk', () => {
  let h: SocialHarness;
  const mod = randomUUID();
  const author = randomUUID();
  const reporter = randomUUID();
  const reporter2 = randomUUID();
  const stranger = randomUUID();

  const admin = (...args: string[]) =>
    run(process.execPath, [path.join(root, 'scripts/admin.mjs'), ...args], { cwd: root, env: { ...process.env, DATABASE_URL: h.db.url, LOG_LEVEL: 'silent' } }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );
  const outbox = async <T>(type: string, schema: Parameters<typeof fromBinary>[0]) =>
    (await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = $1 ORDER BY position`, [type])).map((row) => fromBinary(schema, row.payload) as T);
  const post = async (content: string) => (await h.call('post', '/api/posts', { userId: author }).send({ content }).expect(201)).body.id as string;
  const report = (postId: string, userId: string, reason = 'spam', description?: string) =>
    h.call('post', '/api/reports', { userId }).send({ contentType: 'post', contentId: postId, reason, ...(description ? { description } : {}) }).expect(201);

  beforeAll(async () => {
    h = await startHarness('moderation', { nats: true });
    await h.register(mod, 'mona', 'Mona Moderator');
    await h.register(author, 'arlo', 'Arlo Author');
    await h.register(reporter, 'rita', 'Rita Reporter');
    await h.register(reporter2, 'remy', 'Remy Reporter');
    await h.register(stranger, 'sam', 'Sam Stranger');
  }, 30_000);
  afterAll(async () => {
    const prefix = h.prefix;
    await h.close();
    await deleteBusStreams(testNatsUrl(), prefix);
  });

  it('grants and revokes roles only through the operator command, each in the audit log', async () => {
    expect((await h.call('get', '/api/moderation/role', { userId: mod }).expect(200)).body).toEqual({ role: null });
    const granted = await admin('grant', 'mona', 'moderator');
    expect(granted).toMatchObject({ code: 0, out: expect.stringContaining('mona is now a moderator') });
    expect((await h.call('get', '/api/moderation/role', { userId: mod }).expect(200)).body).toEqual({ role: 'moderator' });
    expect((await admin('grant', '@Mona', 'moderator')).out).toContain('already a moderator');
    expect(await admin('grant', 'nobody', 'moderator')).toMatchObject({ code: 1, out: expect.stringContaining('No account named "nobody"') });
    expect((await admin('grant', 'mona', 'superuser')).code).toBe(64);
    expect((await admin('grant', 'remy', 'admin')).out).toContain('remy is now an admin');
    expect((await admin('revoke', 'remy')).out).toContain('remy no longer has a staff role');
    expect((await h.call('get', '/api/moderation/role', { userId: reporter2 }).expect(200)).body).toEqual({ role: null });
    const log = await h.query<{ action: string; moderator_id: string | null }>(`SELECT action, moderator_id FROM moderation_actions WHERE action IN ('grant', 'revoke') ORDER BY created_at`);
    expect(log.map((r) => r.action)).toEqual(['grant', 'grant', 'revoke']);
    expect(log.every((r) => r.moderator_id === null)).toBe(true);
  }, 180_000);

  it('refuses every desk route to everyone but staff, changing nothing', async () => {
    const postId = await post('Refused routes');
    const snapshot = async () => JSON.stringify(await h.query(`SELECT (SELECT count(*) FROM outbox) AS events, (SELECT count(*) FROM moderation_actions) AS actions,
      (SELECT count(*) FROM moderated_content) AS items, (SELECT count(*) FROM account_suspensions) AS suspensions, (SELECT count(*) FROM moderation_appeals) AS appeals`));
    const ids = { postId, userId: author, appealId: randomUUID(), actionId: randomUUID() };
    for (const route of moderationRoutes.filter((r) => r.staff)) {
      for (const who of [stranger, author, reporter2]) {
        const before = await snapshot();
        const res = await h.call(route.method, route.path(ids), { userId: who }).send(route.body);
        expect({ route: route.route, status: res.status, message: res.body.message }).toEqual({ route: route.route, status: 403, message: 'Only moderators can do this' });
        expect(await snapshot()).toBe(before);
      }
    }
    for (const route of moderationRoutes) {
      const res = await h.call(route.method, route.path(ids), {}).send(route.body);
      expect({ route: route.route, status: res.status }).toEqual({ route: route.route, status: 401 });
    }
  });

  it('groups reports by item, hides it from every read of this service, and tells the reporters and the author', async () => {
    const postId = await post('Buy followers at example.com');
    await report(postId, reporter, 'spam', 'Selling followers');
    await report(postId, reporter2, 'harassment');
    const queue = (await h.call('get', '/api/moderation/queue', { userId: mod }).expect(200)).body;
    const group = queue.items.find((i: { contentId: string }) => i.contentId === postId);
    expect(group).toMatchObject({
      contentType: 'post', reporters: 2, notes: ['Selling followers'],
      reasons: expect.arrayContaining([{ reason: 'spam', count: 1 }, { reason: 'harassment', count: 1 }]),
      item: { authorId: author, authorUsername: 'arlo', text: 'Buy followers at example.com', link: `/post/${postId}`, hidden: false },
    });

    const res = await h.call('post', `/api/moderation/items/post/${postId}/decision`, { userId: mod }).send({ action: 'hide', reason: 'Spam links' }).expect(201);
    expect(res.body).toMatchObject({ action: 'hide', moderatorId: mod, moderatorUsername: 'mona', contentType: 'post', contentId: postId, subjectUserId: author, reason: 'Spam links' });

    // Gone for everyone: the post, the lists, the feed.
    await h.call('get', `/api/posts/${postId}`, { userId: stranger }).expect(404);
    expect((await h.call('get', '/api/posts', { userId: stranger }).expect(200)).body.map((p: { id: string }) => p.id)).not.toContain(postId);
    expect((await h.call('get', '/api/feed?tab=for-you', { userId: stranger }).expect(200)).body.items?.map?.((i: { post?: { id: string } }) => i.post?.id) ?? []).not.toContain(postId);
    // The queue no longer holds it; the reports are closed.
    expect((await h.call('get', '/api/moderation/queue', { userId: mod }).expect(200)).body.items.map((i: { contentId: string }) => i.contentId)).not.toContain(postId);
    expect(await h.query(`SELECT DISTINCT status FROM content_reports WHERE content_id = $1`, [postId])).toEqual([{ status: 'resolved' }]);

    const moderated = (await outbox<{ contentId: string; hidden: boolean; authorId: string; version: bigint }>('social.content.moderated', ContentModeratedSchema)).filter((e) => e.contentId === postId);
    expect(moderated).toEqual([expect.objectContaining({ contentType: 'post', hidden: true, authorId: author, version: expect.any(BigInt) })]);
    const notices = (await outbox<{ recipientId: string; role: string; text: string; contentId: string }>('social.moderation.notice', ModerationNoticeSchema)).filter((e) => e.contentId === postId);
    expect(notices.map((n) => [n.recipientId, n.role]).sort()).toEqual([[author, 'author'], [reporter, 'reporter'], [reporter2, 'reporter']].sort());
    const toReporter = notices.find((n) => n.recipientId === reporter)!;
    expect(toReporter.text).toBe('Moderators removed the post you reported. Thank you for reporting it');
    expect(toReporter.text).not.toContain('mona');
    expect(notices.find((n) => n.recipientId === author)!.text).toBe('Removed by moderators: your post. Reason: Spam links. You may appeal once');

    // The author sees what was done and why, and may appeal once; the appeal joins the queue.
    const mine = (await h.call('get', '/api/moderation-notices', { userId: author }).expect(200)).body;
    expect(mine[0]).toMatchObject({ action: 'hide', contentId: postId, summary: 'Removed by moderators: your post', reason: 'Spam links', appealStatus: null });
    await h.call('post', `/api/moderation-notices/${res.body.id}/appeal`, { userId: stranger }).send({ text: 'Not mine' }).expect(404);
    expect((await h.call('post', `/api/moderation-notices/${res.body.id}/appeal`, { userId: author }).send({ text: 'It was a joke' }).expect(201)).body.appealStatus).toBe('pending');
    expect((await h.call('post', `/api/moderation-notices/${res.body.id}/appeal`, { userId: author }).send({ text: 'Again' })).status).toBe(409);
    const appeal = (await h.call('get', '/api/moderation/queue', { userId: mod }).expect(200)).body.appeals.find((a: { actionId: string }) => a.actionId === res.body.id);
    expect(appeal).toMatchObject({ authorId: author, text: 'It was a joke', action: 'hide', actionReason: 'Spam links', contentId: postId });
    await h.call('post', `/api/moderation/appeals/${appeal.id}/decision`, { userId: mod }).send({ outcome: 'grant', reason: 'Fair enough' }).expect(201);
    await h.call('get', `/api/posts/${postId}`, { userId: stranger }).expect(200);
    expect((await h.call('post', `/api/moderation/appeals/${appeal.id}/decision`, { userId: mod }).send({ outcome: 'uphold', reason: 'x' })).status).toBe(409);
  });

  it("hides comments on posts and timelines from their lists, and a suspended author's comments while the suspension lasts", async () => {
    const postId = await post('Comment here');
    const onPost = (await h.call('post', `/api/posts/${postId}/comments`, { userId: stranger }).send({ content: 'A rude comment' }).expect(201)).body.id as string;
    const kept = (await h.call('post', `/api/posts/${postId}/comments`, { userId: reporter }).send({ content: 'A kind comment' }).expect(201)).body.id as string;
    const timeline = h.world.publicTimeline;
    const onTimeline = (await h.call('post', `/api/timelines/${timeline}/comments`, { userId: stranger }).send({ content: 'Another rude one' }).expect(201)).body.id as string;
    const postComments = async () => ((await h.call('get', `/api/posts/${postId}/comments`, { userId: reporter }).expect(200)).body as Array<{ id: string }>).map((c) => c.id);
    const timelineComments = async () => JSON.stringify((await h.call('get', `/api/timelines/${timeline}/comments`, { userId: reporter }).expect(200)).body);
    expect(await postComments()).toEqual([onPost, kept]);
    await h.call('post', `/api/moderation/items/post_comment/${onPost}/decision`, { userId: mod }).send({ action: 'hide', reason: 'Insults' }).expect(201);
    expect(await postComments()).toEqual([kept]);
    expect(await timelineComments()).toContain(onTimeline);
    await h.call('post', `/api/moderation/items/timeline_comment/${onTimeline}/decision`, { userId: mod }).send({ action: 'hide', reason: 'Insults' }).expect(201);
    expect(await timelineComments()).not.toContain(onTimeline);
    // Suspending the reporter of the kind comment takes it away too, and lifting brings it back.
    await h.call('post', `/api/moderation/users/${reporter}/suspension`, { userId: mod }).send({ reason: 'Test', days: 1 }).expect(201);
    expect(((await h.call('get', `/api/posts/${postId}/comments`, { userId: author }).expect(200)).body as Array<{ id: string }>).map((c) => c.id)).toEqual([]);
    await h.call('post', `/api/moderation/users/${reporter}/lift`, { userId: mod }).send({ reason: 'Test over' }).expect(201);
    expect(await postComments()).toEqual([kept]);
  });

  it('dismisses reports, keeping the item, and tells the reporter', async () => {
    const postId = await post('A fair opinion');
    await report(postId, reporter, 'other');
    await h.call('post', `/api/moderation/items/post/${postId}/decision`, { userId: mod }).send({ action: 'dismiss', reason: 'No rule broken' }).expect(201);
    await h.call('get', `/api/posts/${postId}`, { userId: stranger }).expect(200);
    const notices = (await outbox<{ recipientId: string; text: string; contentId: string }>('social.moderation.notice', ModerationNoticeSchema)).filter((e) => e.contentId === postId);
    expect(notices).toEqual([expect.objectContaining({ recipientId: reporter, text: 'Moderators reviewed the post you reported and left it up' })]);
    expect(await h.query(`SELECT status FROM content_reports WHERE content_id = $1`, [postId])).toEqual([{ status: 'dismissed' }]);
  });

  it('refuses bad input with a clear 4xx and changes nothing', async () => {
    const postId = await post('Bad input');
    const before = await h.query(`SELECT count(*) AS n FROM moderation_actions`);
    const cases: Array<[string, Record<string, unknown> | undefined, number, string | RegExp]> = [
      [`/api/moderation/items/post/${postId}/decision`, { action: 'delete', reason: 'x' }, 400, /Action must be one of/],
      [`/api/moderation/items/post/${postId}/decision`, { action: 'hide', reason: '  ' }, 400, 'Please give a reason'],
      [`/api/moderation/items/post/${postId}/decision`, { action: 'hide', reason: 'x'.repeat(1001) }, 400, 'Reason must be at most 1000 characters'],
      [`/api/moderation/items/post/${postId}/decision`, { action: 'hide', reason: 'x', moderatorId: stranger }, 400, 'Unknown field: moderatorId'],
      [`/api/moderation/items/user/${postId}/decision`, { action: 'hide', reason: 'x' }, 404, 'Item not found'],
      [`/api/moderation/items/post/${randomUUID()}/decision`, { action: 'hide', reason: 'x' }, 404, 'Item not found'],
      [`/api/moderation/items/post/not-an-id/decision`, { action: 'hide', reason: 'x' }, 404, 'Item not found'],
      [`/api/moderation/users/${author}/suspension`, { reason: 'x', days: 0 }, 400, 'Days must be a whole number from 1 to 3650'],
      [`/api/moderation/users/${randomUUID()}/suspension`, { reason: 'x' }, 404, 'Person not found'],
      [`/api/moderation/users/${mod}/suspension`, { reason: 'x' }, 400, 'You cannot suspend yourself'],
      [`/api/moderation/users/${author}/lift`, { reason: 'x' }, 409, 'This account is not suspended'],
      [`/api/moderation/appeals/${randomUUID()}/decision`, { outcome: 'grant', reason: 'x' }, 404, 'Appeal not found'],
    ];
    for (const [url, body, status, message] of cases) {
      const res = await h.call('post', url, { userId: mod }).send(body);
      expect({ url, status: res.status, message: res.body.message }).toEqual({ url, status, message: typeof message === 'string' ? message : expect.stringMatching(message) });
    }
    expect(await h.query(`SELECT count(*) AS n FROM moderation_actions`)).toEqual(before);
  });

  it('suspends an account for a period (its posts hidden, auth told) and lifts it', async () => {
    const postId = await post('Before the suspension');
    const res = await h.call('post', `/api/moderation/users/${author}/suspension`, { userId: mod }).send({ reason: 'Repeated spam', days: 7 }).expect(201);
    expect(res.body).toMatchObject({ action: 'suspend', subjectUserId: author, reason: 'Repeated spam' });
    expect(new Date(res.body.until).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    await h.call('get', `/api/posts/${postId}`, { userId: stranger }).expect(404);
    const [suspended] = (await outbox<{ userId: string; active: boolean; until?: { seconds: bigint }; reason: string }>('social.account.suspension.changed', AccountSuspensionChangedSchema)).filter((e) => e.userId === author);
    expect(suspended).toMatchObject({ active: true, reason: 'Repeated spam' });
    expect(Number(suspended!.until!.seconds) * 1000).toBeCloseTo(new Date(res.body.until).getTime(), -4);

    await h.call('post', `/api/moderation/users/${author}/lift`, { userId: mod }).send({ reason: 'Served enough' }).expect(201);
    await h.call('get', `/api/posts/${postId}`, { userId: stranger }).expect(200);
    const changes = (await outbox<{ userId: string; active: boolean; version: bigint }>('social.account.suspension.changed', AccountSuspensionChangedSchema)).filter((e) => e.userId === author);
    expect(changes.map((c) => c.active)).toEqual([true, false]);
    expect(changes[1]!.version).toBeGreaterThan(changes[0]!.version);
    // For good: no end.
    const forGood = await h.call('post', `/api/moderation/users/${stranger}/suspension`, { userId: mod }).send({ reason: 'Threats' }).expect(201);
    expect(forGood.body.until).toBeNull();
  });

  it('keeps an append-only audit log, shown newest first in pages', async () => {
    const page = await h.call('get', '/api/moderation/audit?limit=2', { userId: mod }).expect(200);
    expect(page.body).toHaveLength(2);
    expect(page.body[0]).toMatchObject({ action: 'suspend', moderatorUsername: 'mona', subjectUsername: 'sam', reason: 'Threats', until: null });
    const next = await h.call('get', `/api/moderation/audit?limit=100&cursor=${page.headers['x-next-cursor']}`, { userId: mod }).expect(200);
    expect(next.body.map((e: { id: string }) => e.id)).not.toContain(page.body[0].id);
    await expect(h.query(`UPDATE moderation_actions SET reason = 'nothing happened'`)).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(h.query(`DELETE FROM moderation_actions`)).rejects.toThrow(/append-only: DELETE refused/);
    await expect(h.query(`TRUNCATE moderation_actions`)).rejects.toThrow(/append-only: TRUNCATE refused/);
    expect(Number((await h.query<{ n: string }>(`SELECT count(*) AS n FROM moderation_actions`))[0]!.n)).toBeGreaterThan(5);
  });

  it('publishes the decisions on the bus for the other services', async () => {
    await waitFor(async () => Number((await h.query<{ n: string }>(`SELECT count(*) AS n FROM outbox WHERE dispatched_at IS NULL`))[0]!.n) === 0, 10_000);
  });
});
