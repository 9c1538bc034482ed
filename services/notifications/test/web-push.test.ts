import { createPublicKey, randomUUID, verify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Reaction, SocialEvents, TargetType, Visibility } from '@timeliner/proto';
import { type NotificationsHarness, startHarness, waitFor } from './harness.js';
import { type Browser, browserKeys, decrypt, selfSignedCertificate } from './push-service.js';

/** RFC 8292: `vapid t=<ES256 JWT>, k=<public key>`, signed by the application server's key. */
function checkVapid(headers: IncomingHttpHeaders, audience: string, expected: { publicKey: string; subject: string }): void {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(headers.authorization ?? '');
  if (!match) throw new Error(`no VAPID authorization: ${headers.authorization}`);
  const [, token, key] = match as unknown as [string, string, string];
  expect(key).toBe(expected.publicKey);
  const [header, claims, signature] = token.split('.') as [string, string, string];
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ typ: 'JWT', alg: 'ES256' });
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') }, format: 'jwk' });
  const valid = verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  expect(valid).toBe(true);
  const payload = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  expect(payload.aud).toBe(audience);
  expect(payload.sub).toBe(expected.subject);
  const now = Date.now() / 1000;
  expect(payload.exp).toBeGreaterThan(now);
  expect(payload.exp).toBeLessThanOrEqual(now + 24 * 3600);
}

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Web Push end to end without the internet: a push service on loopback receives what the
 * notifications worker sends, checks its VAPID JWT and decrypts it with the browser's keys.
 */
describe('Web Push', () => {
  let h: NotificationsHarness;
  let server: Server;
  let origin: string;
  const received: Received[] = [];
  /** Status answers per path, in order; 201 once they run out. */
  const answers = new Map<string, number[]>();
  /** Paths whose answer waits for the promise (what the test must apply first). */
  const holds = new Map<string, Promise<void>>();
  let ana: string, ben: string;
  let version = 0n;

  const subscribe = async (userId: string, path: string, browser: Browser) =>
    h.call('post', '/api/notifications/push-subscriptions', { userId }).send({ endpoint: `${origin}${path}`, keys: browser.json }).expect(201);
  const like = (ownerId: string, userId: string, targetId = randomUUID()) =>
    h.publish(SocialEvents.ReactionChanged, { targetType: TargetType.TIMELINE, targetId, timelineId: targetId, ownerId, timelineVisibility: Visibility.PUBLIC, userId, reaction: Reaction.LIKE, active: true, count: 1n, countVersion: ++version });

  beforeAll(async () => {
    const tls = selfSignedCertificate();
    server = createServer(tls, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
        const status = answers.get(request.url ?? '')?.shift() ?? 201;
        void (holds.get(request.url ?? '') ?? Promise.resolve()).then(() => response.writeHead(status).end());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    h = await startHarness('notifpush', { pushCa: tls.cert });
    ana = await h.person('ana', 'Ana');
    ben = await h.person('ben', 'Ben', 'ben@example.com');
  });

  afterAll(async () => {
    await h?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('delivers a signed, encrypted push with urgency and a topic per group', async () => {
    const browser = browserKeys();
    await subscribe(ana, '/push/ana', browser);
    const timeline = randomUUID();
    await like(ana, ben, timeline);
    await waitFor(() => received.some((r) => r.path === '/push/ana'));
    const push = received.find((r) => r.path === '/push/ana')!;

    checkVapid(push.headers, origin, h.vapid);
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers.ttl).toBe('86400');
    expect(push.headers.urgency).toBe('low');
    expect(push.headers.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(push.body.length).toBeLessThan(4096);
    const payload = JSON.parse(decrypt(push.body, browser));
    expect(payload).toMatchObject({ title: 'Timeliner', body: 'Ben liked your timeline', url: `/watch/${timeline}`, tag: push.headers.topic, kind: 'like', unreadCount: 1 });

    // A second like of the same timeline is the same group: the same topic, so the push service
    // replaces an undelivered first message; another timeline is another topic.
    const carl = await h.person('carl', 'Carl');
    await like(ana, carl, timeline);
    // The push shows the unread count when it is queued: wait for it before the next like.
    await waitFor(() => received.filter((r) => r.path === '/push/ana').length === 2);
    await like(ana, carl);
    await waitFor(() => received.filter((r) => r.path === '/push/ana').length === 3);
    const [, second, third] = received.filter((r) => r.path === '/push/ana');
    expect(second!.headers.topic).toBe(push.headers.topic);
    expect(third!.headers.topic).not.toBe(push.headers.topic);
    expect(JSON.parse(decrypt(second!.body, browser))).toMatchObject({ body: 'Carl and Ben liked your timeline', unreadCount: 1 });
  });

  it('retries a push service that fails, with back-off', async () => {
    const browser = browserKeys();
    answers.set('/push/flaky', [503, 500]);
    await subscribe(ben, '/push/flaky', browser);
    await like(ben, ana);
    await waitFor(() => received.filter((r) => r.path === '/push/flaky').length === 3);
    const tries = received.filter((r) => r.path === '/push/flaky');
    expect(new Set(tries.map((t) => decrypt(t.body, browser))).size).toBe(1);
    expect(await h.query('SELECT 1 FROM push_subscriptions WHERE endpoint = $1', [`${origin}/push/flaky`])).toHaveLength(1);
  });

  it('sends no retry of a push whose actor the recipient has since blocked, nor one whose entry was taken back', async () => {
    const gil = await h.person('gil', 'Gil');
    const hana = await h.person('hana', 'Hana');
    answers.set('/push/gil', [503]);
    // The failed answer waits until the block is applied, so the retry comes after it on any machine.
    let release = () => undefined as void;
    holds.set('/push/gil', new Promise<void>((resolve) => (release = resolve)));
    await subscribe(gil, '/push/gil', browserKeys());
    await like(gil, hana);
    await waitFor(() => received.filter((r) => r.path === '/push/gil').length === 1);
    // Before the retry (two seconds after the failure), Gil blocks Hana.
    await h.publish(SocialEvents.BlockChanged, { blockerId: gil, blockedId: hana, active: true, version: ++version, at: timestampFromDate(new Date()) });
    release();
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(received.filter((r) => r.path === '/push/gil')).toHaveLength(1);

    // A like undone before the retry: the entry is gone, so is its push.
    const ivo = await h.person('ivo', 'Ivo');
    answers.set('/push/ivo', [503]);
    holds.set('/push/ivo', new Promise<void>((resolve) => (release = resolve)));
    await subscribe(ivo, '/push/ivo', browserKeys());
    const timeline = randomUUID();
    await like(ivo, hana, timeline);
    await waitFor(() => received.filter((r) => r.path === '/push/ivo').length === 1);
    await h.publish(SocialEvents.ReactionChanged, { targetType: TargetType.TIMELINE, targetId: timeline, timelineId: timeline, ownerId: ivo, timelineVisibility: Visibility.PUBLIC, userId: hana, reaction: Reaction.LIKE, active: false, count: 0n, countVersion: ++version });
    release();
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(received.filter((r) => r.path === '/push/ivo')).toHaveLength(1);
  });

  it('deletes a subscription its push service says is gone (410) or does not know (404)', async () => {
    const dora = await h.person('dora', 'Dora');
    answers.set('/push/gone', [410]);
    answers.set('/push/unknown', [404]);
    await subscribe(dora, '/push/gone', browserKeys());
    await subscribe(dora, '/push/unknown', browserKeys());
    await like(dora, ana);
    await waitFor(async () => (await h.query('SELECT 1 FROM push_subscriptions WHERE user_id = $1', [dora])).length === 0);
    expect(received.filter((r) => r.path === '/push/gone')).toHaveLength(1);
    expect(received.filter((r) => r.path === '/push/unknown')).toHaveLength(1);
  });

  it('keeps ten subscriptions per person: an eleventh drops the oldest, and a push goes to ten browsers', async () => {
    const fay = await h.person('fay', 'Fay');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await subscribe(fay, `/push/fay-${i}`, browserKeys())).body.id);
    const kept = await h.query<{ endpoint: string }>('SELECT endpoint FROM push_subscriptions WHERE user_id = $1 ORDER BY endpoint', [fay]);
    expect(kept.map((k) => k.endpoint.replace(`${origin}/push/`, '')).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `fay-${i + 2}`).sort());
    // Registering a kept browser again keeps the count.
    expect((await subscribe(fay, '/push/fay-2', browserKeys())).body.id).toBe(ids[2]);
    expect(await h.query('SELECT 1 FROM push_subscriptions WHERE user_id = $1', [fay])).toHaveLength(10);
    await like(fay, ana);
    await waitFor(() => received.filter((r) => r.path.startsWith('/push/fay-')).length === 10);
    await new Promise((r) => setTimeout(r, 300));
    expect(new Set(received.filter((r) => r.path.startsWith('/push/fay-')).map((r) => r.path)).size).toBe(10);
    expect(received.some((r) => r.path === '/push/fay-0' || r.path === '/push/fay-1')).toBe(false);
  });

  it("refuses another account's endpoint unless the request carries the keys it was registered with", async () => {
    const gus = await h.person('gus', 'Gus');
    const hal = await h.person('hal', 'Hal');
    const browser = browserKeys();
    const { body } = await subscribe(gus, '/push/gus-browser', browser);
    // Hal knows the endpoint, not the browser's keys: refused, and it stays Gus's.
    const taken = await h.call('post', '/api/notifications/push-subscriptions', { userId: hal }).send({ endpoint: `${origin}/push/gus-browser`, keys: browserKeys().json });
    expect([taken.status, taken.body.message]).toEqual([409, 'This push endpoint is registered with other keys']);
    expect(await h.query('SELECT user_id, p256dh FROM push_subscriptions WHERE id = $1', [body.id])).toEqual([{ user_id: gus, p256dh: browser.json.p256dh }]);
    await like(gus, ana);
    await waitFor(() => received.some((r) => r.path === '/push/gus-browser'));
    expect(JSON.parse(decrypt(received.find((r) => r.path === '/push/gus-browser')!.body, browser))).toMatchObject({ kind: 'like' });
    // The same browser signed into Hal's account (same keys) moves to Hal.
    expect((await subscribe(hal, '/push/gus-browser', browser)).body.id).toBe(body.id);
    expect(await h.query('SELECT user_id FROM push_subscriptions WHERE id = $1', [body.id])).toEqual([{ user_id: hal }]);
    // The owner may register their own browser again with new keys (a renewed subscription).
    const renewed = browserKeys();
    expect((await subscribe(hal, '/push/gus-browser', renewed)).body.id).toBe(body.id);
    expect(await h.query('SELECT p256dh FROM push_subscriptions WHERE id = $1', [body.id])).toEqual([{ p256dh: renewed.json.p256dh }]);
  });

  it('pushes nothing for a type whose push is turned off, and pushes a type kept out of the list', async () => {
    const eli = await h.person('eli', 'Eli');
    const browser = browserKeys();
    await subscribe(eli, '/push/eli', browser);
    await h.call('put', '/api/notifications/preferences', { userId: eli }).send({ likes: { push: false }, follows: { inApp: false } }).expect(200);
    await like(eli, ana);
    await h.publish(SocialEvents.FollowChanged, { followerId: ben, followeeId: eli, active: true, followersCount: 1n, followersVersion: 1n, followingCount: 1n, followingVersion: 1n });
    await waitFor(() => received.some((r) => r.path === '/push/eli'));
    await new Promise((r) => setTimeout(r, 300));
    const pushes = received.filter((r) => r.path === '/push/eli').map((r) => JSON.parse(decrypt(r.body, browser)));
    // The badge count is the list's: the like, not the follow kept out of it.
    expect(pushes).toEqual([expect.objectContaining({ kind: 'follow', body: 'Ben followed you', url: `/profile/${eli}`, unreadCount: 1 })]);
    expect(((await h.call('get', '/api/notifications', { userId: eli }).expect(200)).body as Array<{ kind: string }>).map((e) => e.kind)).toEqual(['like']);
  });
});
