import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Reaction, SocialEvents, TargetType } from '@timeliner/proto';
import { type NotificationsHarness, startHarness } from './harness.js';

const KEYS = {
  // A real P-256 public key (65 bytes, uncompressed) and a 16-byte secret.
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};

/** The calls: each person sees and changes only their own; bad input is a clear 4xx that changes nothing. */
describe('notification calls', () => {
  let h: NotificationsHarness;
  let ana: string, ben: string;
  let version = 0n;
  const likePost = (owner: string, userId: string, postId = randomUUID()) =>
    h.publish(SocialEvents.ReactionChanged, { targetType: TargetType.POST, targetId: postId, ownerId: owner, userId, reaction: Reaction.LIKE, active: true, count: 1n, countVersion: ++version });

  beforeAll(async () => {
    h = await startHarness('notifcalls');
    ana = await h.person('ana', 'Ana');
    ben = await h.person('ben', 'Ben');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('answers 401 to anonymous callers on every call', async () => {
    for (const [method, path] of [
      ['get', '/api/notifications/unread-count'],
      ['get', '/api/notifications'],
      ['post', `/api/notifications/${randomUUID()}/read`],
      ['post', '/api/notifications/read-all'],
      ['get', '/api/notifications/preferences'],
      ['put', '/api/notifications/preferences'],
      ['get', '/api/notifications/push-key'],
      ['post', '/api/notifications/push-subscriptions'],
      ['delete', '/api/notifications/push-subscriptions'],
    ] as const) {
      await h.call(method, path).expect(401);
    }
  });

  it('pages the list newest first with a cursor, and rejects bad paging', async () => {
    for (let i = 0; i < 5; i++) await likePost(ana, ben);
    const first = await h.call('get', '/api/notifications?limit=2', { userId: ana }).expect(200);
    expect(first.body).toHaveLength(2);
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();
    const rest = await h.call('get', `/api/notifications?limit=10&cursor=${encodeURIComponent(cursor)}`, { userId: ana }).expect(200);
    expect(rest.body).toHaveLength(3);
    expect(rest.headers['x-next-cursor']).toBeUndefined();
    const all = [...first.body, ...rest.body] as Array<{ id: string; updatedAt: string }>;
    expect(new Set(all.map((e) => e.id)).size).toBe(5);
    expect(all.map((e) => e.updatedAt)).toEqual([...all.map((e) => e.updatedAt)].sort().reverse());

    for (const query of ['limit=0', 'limit=51', 'limit=abc', 'cursor=nope', `cursor=${'x'.repeat(201)}`, 'unknown=1']) {
      const response = await h.call('get', `/api/notifications?${query}`, { userId: ana }).expect(400);
      expect(response.body).toMatchObject({ statusCode: 400, message: expect.any(String) });
    }
  });

  it('marks one read, only the caller\'s own (another person\'s id is not found)', async () => {
    const [entry] = (await h.call('get', '/api/notifications', { userId: ana }).expect(200)).body as Array<{ id: string }>;
    const before = (await h.call('get', '/api/notifications/unread-count', { userId: ana }).expect(200)).body.count as number;
    await h.call('post', `/api/notifications/${entry!.id}/read`, { userId: ben }).expect(404);
    await h.call('post', '/api/notifications/not-a-uuid/read', { userId: ana }).expect(404);
    await h.call('post', `/api/notifications/${randomUUID()}/read`, { userId: ana }).expect(404);
    expect((await h.call('get', '/api/notifications/unread-count', { userId: ana }).expect(200)).body).toEqual({ count: before });

    const live = await h.listen(ana);
    const read = await h.call('post', `/api/notifications/${entry!.id}/read`, { userId: ana }).expect(200);
    expect(read.body).toMatchObject({ id: entry!.id, read: true });
    expect((await h.call('get', '/api/notifications/unread-count', { userId: ana }).expect(200)).body).toEqual({ count: before - 1 });
    await new Promise((r) => setTimeout(r, 200));
    expect(live).toContainEqual({ type: 'notification_count', unreadCount: before - 1 });
  });

  it('marks all read', async () => {
    await h.call('post', '/api/notifications/read-all', { userId: ana }).expect(200, { count: 0 });
    expect((await h.call('get', '/api/notifications/unread-count', { userId: ana }).expect(200)).body).toEqual({ count: 0 });
  });

  describe('preferences', () => {
    it('are all on until changed, and change per type and channel', async () => {
      const initial = (await h.call('get', '/api/notifications/preferences', { userId: ben }).expect(200)).body;
      expect(Object.keys(initial).sort()).toEqual(['collaboration', 'comments', 'exports', 'follows', 'likes', 'mentions', 'videos']);
      expect(initial.likes).toEqual({ inApp: true, push: true });
      const changed = (await h.call('put', '/api/notifications/preferences', { userId: ben }).send({ likes: { inApp: false }, follows: { push: false } }).expect(200)).body;
      expect(changed.likes).toEqual({ inApp: false, push: true });
      expect(changed.follows).toEqual({ inApp: true, push: false });
      expect(changed.comments).toEqual({ inApp: true, push: true });
      expect((await h.call('get', '/api/notifications/preferences', { userId: ana }).expect(200)).body.likes).toEqual({ inApp: true, push: true });
    });

    it('reject unknown types or channels and values that are not booleans, changing nothing', async () => {
      for (const body of [{ pokes: { inApp: false } }, { likes: { inApp: 'no' } }, { likes: { email: true } }, { likes: 5 }, []]) {
        await h.call('put', '/api/notifications/preferences', { userId: ben }).send(body).expect(400);
      }
      expect((await h.call('get', '/api/notifications/preferences', { userId: ben }).expect(200)).body.likes).toEqual({ inApp: false, push: true });
    });

    it('keep a type turned off out of the list', async () => {
      await likePost(ben, ana);
      expect((await h.call('get', '/api/notifications', { userId: ben }).expect(200)).body).toEqual([]);
      await h.call('put', '/api/notifications/preferences', { userId: ben }).send({ likes: { inApp: true } }).expect(200);
      await likePost(ben, ana);
      expect((await h.call('get', '/api/notifications', { userId: ben }).expect(200)).body).toHaveLength(1);
    });
  });

  describe('push subscriptions', () => {
    it('gives the VAPID public key', async () => {
      expect((await h.call('get', '/api/notifications/push-key', { userId: ana }).expect(200)).body).toEqual({ publicKey: h.vapid.publicKey });
    });

    it('accept a browser subscription once, and hand a browser over to whoever subscribes from it', async () => {
      // On loopback, the one internal address the harness opens (no DNS here for a public name).
      const endpoint = `https://127.0.0.1:9/send/${randomUUID()}`;
      const first = await h.call('post', '/api/notifications/push-subscriptions', { userId: ana }).send({ endpoint, expirationTime: null, keys: KEYS }).expect(201);
      const again = await h.call('post', '/api/notifications/push-subscriptions', { userId: ana }).send({ endpoint, keys: KEYS }).expect(201);
      expect(again.body.id).toBe(first.body.id);
      await h.call('post', '/api/notifications/push-subscriptions', { userId: ben }).send({ endpoint, keys: KEYS }).expect(201);
      expect(await h.query('SELECT user_id FROM push_subscriptions WHERE endpoint = $1', [endpoint])).toEqual([{ user_id: ben }]);
      // Someone else's subscription is not found.
      await h.call('delete', '/api/notifications/push-subscriptions', { userId: ana }).send({ endpoint }).expect(404);
      await h.call('delete', '/api/notifications/push-subscriptions', { userId: ben }).send({ endpoint }).expect(204);
      expect(await h.query('SELECT 1 FROM push_subscriptions WHERE endpoint = $1', [endpoint])).toEqual([]);
    });

    it('refuse endpoints that are not public https push services, and malformed keys', async () => {
      const bad: Array<[Record<string, unknown>, RegExp]> = [
        [{ endpoint: 'http://push.example.com/x', keys: KEYS }, /https/],
        [{ endpoint: 'http://127.0.0.1:9/x', keys: KEYS }, /https/],
        [{ endpoint: 'https://10.0.0.5/x', keys: KEYS }, /public push service/],
        [{ endpoint: 'https://169.254.169.254/latest', keys: KEYS }, /public push service/],
        [{ endpoint: 'https://[fd00::1]/x', keys: KEYS }, /public push service/],
        [{ endpoint: 'https://user:pw@push.example.com/x', keys: KEYS }, /credentials/],
        [{ endpoint: 'not a url', keys: KEYS }, /https/],
        [{ endpoint: 'https://push.example.com/x' }, /keys/],
        [{ endpoint: 'https://push.example.com/x', keys: { ...KEYS, p256dh: 'short' } }, /p256dh/],
        [{ endpoint: 'https://push.example.com/x', keys: { ...KEYS, p256dh: `A${KEYS.p256dh.slice(1)}` } }, /p256dh/],
        [{ endpoint: 'https://push.example.com/x', keys: { ...KEYS, auth: 'abc' } }, /auth/],
        [{ endpoint: 'https://push.example.com/x', keys: KEYS, owner: ben }, /Unknown field/],
        [{ endpoint: `https://push.example.com/${'x'.repeat(2100)}`, keys: KEYS }, /2048/],
      ];
      for (const [body, message] of bad) {
        const response = await h.call('post', '/api/notifications/push-subscriptions', { userId: ana }).send(body);
        expect([response.status, response.body.message]).toEqual([400, expect.stringMatching(message)]);
      }
      expect(await h.query('SELECT 1 FROM push_subscriptions WHERE user_id = $1', [ana])).toEqual([]);
    });
  });
});
