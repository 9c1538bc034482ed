import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fromBinary } from '@bufbuild/protobuf';
import { NotificationChangedSchema, Reaction, SocialEvents, TargetType, Visibility } from '@timeliner/proto';
import { type NotificationsHarness, startHarness } from './harness.js';
import { browserKeys, decrypt, selfSignedCertificate } from './push-service.js';

/**
 * A follow/unfollow (or like/unlike) storm by one person tells its target once per 24 hours per
 * pair, in the list and by Web Push, however the events arrive.
 */
describe('toggle storms', () => {
  let h: NotificationsHarness;
  let server: Server;
  let origin: string;
  const received: Array<{ path: string; body: Buffer }> = [];
  let version = 0n;

  beforeAll(async () => {
    const tls = selfSignedCertificate();
    server = createServer(tls, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', body: Buffer.concat(chunks) });
        response.writeHead(201).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    h = await startHarness('notifstorm', { pushCa: tls.cert });
  });

  afterAll(async () => {
    await h?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const follow = (followerId: string, followeeId: string, active: boolean, options: { occurredAt?: Date; wait?: boolean } = {}) => {
    const v = ++version;
    return h.publish(SocialEvents.FollowChanged, { followerId, followeeId, active, followersCount: 1n, followersVersion: v, followingCount: 1n, followingVersion: v }, options);
  };
  const like = (ownerId: string, userId: string, postId: string, active: boolean) =>
    h.publish(SocialEvents.ReactionChanged, { targetType: TargetType.POST, targetId: postId, ownerId, timelineVisibility: Visibility.PUBLIC, userId, reaction: Reaction.LIKE, active, count: active ? 1n : 0n, countVersion: ++version });
  const list = async (userId: string) => (await h.call('get', '/api/notifications?limit=50', { userId }).expect(200)).body as Array<{ kind: string; count: number; text: string; actors: Array<{ id: string }> }>;
  /** Pushes asked for this person (the changes written with push on), as the delivery group queues them. */
  const pushesQueued = async (userId: string) =>
    (await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = 'notifications.notification.changed' ORDER BY position`))
      .map((row) => fromBinary(NotificationChangedSchema, row.payload))
      .filter((change) => change.recipientId === userId && change.push).length;
  const subscribed = async (userId: string, path: string) => {
    const browser = browserKeys();
    await h.call('post', '/api/notifications/push-subscriptions', { userId }).send({ endpoint: `${origin}${path}`, keys: browser.json }).expect(201);
    return browser;
  };
  const settle = () => new Promise((r) => setTimeout(r, 800));

  it('30 follow/unfollow toggles by one person notify the target once, in the list and by push', async () => {
    const dee = await h.person('dee', 'Dee');
    const ben = await h.person('ben', 'Ben');
    const browser = await subscribed(dee, '/push/dee');
    for (let i = 0; i < 30; i += 1) await follow(ben, dee, i % 2 === 0);
    // One push is queued. It leaves unless the storm's last unfollow took its entry back first (a
    // queued push is checked again before it is sent), so the target gets it once or not at all.
    await settle();
    await settle();
    const pushes = received.filter((r) => r.path === '/push/dee').map((r) => JSON.parse(decrypt(r.body, browser)) as { kind: string; body: string });
    console.log(`30 toggles: ${pushes.length} push(es) received, ${await pushesQueued(dee)} queued`);
    expect(pushes).toEqual(pushes.length === 0 ? [] : [expect.objectContaining({ kind: 'follow', body: 'Ben followed you' })]);
    expect(await pushesQueued(dee)).toBe(1);
    // The storm ended unfollowed: the unread entry was taken back, and a follow again today adds nothing.
    expect(await list(dee)).toEqual([]);
    await follow(ben, dee, true);
    expect(await list(dee)).toEqual([]);
    // Someone else is another pair: told.
    const cy = await h.person('cy', 'Cy');
    await follow(cy, dee, true);
    expect((await list(dee)).map((e) => e.text)).toEqual(['Cy followed you']);
    expect(await pushesQueued(dee)).toBe(2);
  });

  it('tells once when the same follow arrives many times at once (concurrent handlers)', async () => {
    const eve = await h.person('eve', 'Eve');
    const fans = await Promise.all(Array.from({ length: 3 }, (_, i) => h.person(`fan${i}`, `Fan ${i}`)));
    // Each fan toggles nine times at once, ending followed: the handlers run concurrently, in any order.
    await Promise.all(fans.flatMap((fan) => Array.from({ length: 9 }, (_, i) => follow(fan, eve, i % 2 === 0))));
    const told = await h.query<{ actor_id: string }>('SELECT actor_id FROM told_once_a_day WHERE recipient_id = $1', [eve]);
    expect(told.map((row) => row.actor_id).sort()).toEqual([...fans].sort());
    expect(await pushesQueued(eve)).toBe(3);
    const activities = await h.query<{ source_key: string }>(`SELECT source_key FROM notification_activities WHERE recipient_id = $1`, [eve]);
    expect(new Set(activities.map((a) => a.source_key)).size).toBe(activities.length);
  });

  it('tells the same pair again once 24 hours have passed since it was told', async () => {
    const fay = await h.person('fay', 'Fay');
    const gus = await h.person('gus', 'Gus');
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    await follow(gus, fay, true, { occurredAt: dayAgo });
    await follow(gus, fay, false, { occurredAt: new Date(dayAgo.getTime() + 1000) });
    await follow(gus, fay, true, { occurredAt: new Date(dayAgo.getTime() + 2000) });
    expect(await pushesQueued(fay)).toBe(1);
    await follow(gus, fay, false);
    await follow(gus, fay, true);
    expect((await list(fay)).map((e) => e.text)).toEqual(['Gus followed you']);
    expect(await pushesQueued(fay)).toBe(2);
  });

  it('a like/unlike storm on one post tells its author once', async () => {
    const hal = await h.person('hal', 'Hal');
    const ivy = await h.person('ivy', 'Ivy');
    const post = randomUUID();
    for (let i = 0; i < 20; i += 1) await like(hal, ivy, post, i % 2 === 0);
    await like(hal, ivy, post, true);
    expect(await pushesQueued(hal)).toBe(1);
    expect(await list(hal)).toEqual([]);
  });
});
