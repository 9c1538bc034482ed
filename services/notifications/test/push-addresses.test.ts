import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '@timeliner/platform';
import { NotificationJobs, SocialEvents } from '@timeliner/proto';
import { NotificationsConfig } from '../src/index.js';
import { type NotificationsHarness, startHarness, waitFor } from './harness.js';
import { browserKeys, startPushService } from './push-service.js';

/** A TCP listener that counts who connects (a local service a push must never reach). */
async function listener(host: string): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

const close = (server: Server) => new Promise((resolve) => server.close(resolve));

let fans = 0;
/** A new follower of `followeeId`: a notification, pushed. */
async function follow(h: NotificationsHarness, followeeId: string) {
  const followerId = await h.person(`fan${++fans}`);
  await h.publish(SocialEvents.FollowChanged, { followerId, followeeId, active: true, followersCount: 1n, followersVersion: 1n, followingCount: 1n, followingVersion: 1n });
}

/**
 * Push endpoints are addresses a user supplies: the service resolves them and refuses internal
 * addresses when a subscription is registered and again when a push connects (DESIGN.md §9).
 */
describe('Web Push endpoints on internal addresses', () => {
  describe('as in production: no internal range opened', () => {
    let h: NotificationsHarness;
    let local: Awaited<ReturnType<typeof listener>>;
    let ana: string;

    beforeAll(async () => {
      local = await listener('127.0.0.1');
      h = await startHarness('notifaddr', { pushAddresses: {} });
      ana = await h.person('ana', 'Ana');
    });

    afterAll(async () => {
      await h?.close();
      await close(local.server);
    });

    it('refuses loopback, private, link-local, unique-local, multicast and unspecified addresses, by name or number', async () => {
      const internal = [
        // This machine by its own name, a local listener and Postgres.
        `https://${hostname()}:${local.port}/push`,
        `https://${hostname()}:5432/push`,
        `https://${hostname()}.:5432/push`,
        `https://localhost.:${local.port}/push`,
        `https://LocalHost:${local.port}/push`,
        `https://127.0.0.1:${local.port}/push`,
        `https://127.9.9.9/push`,
        `https://2130706433:${local.port}/push`,
        `https://0x7f.0.0.1:${local.port}/push`,
        `https://[::1]:${local.port}/push`,
        `https://[::ffff:127.0.0.1]:${local.port}/push`,
        'https://10.1.2.3/push',
        'https://172.20.0.5/push',
        'https://192.168.0.10/push',
        'https://100.64.1.1/push',
        'https://169.254.169.254/latest/meta-data',
        'https://[fe80::1]/push',
        'https://[fd00:ec2::254]/push',
        'https://224.0.0.251/push',
        'https://[ff02::1]/push',
        'https://0.0.0.0/push',
        'https://[::]/push',
      ];
      for (const endpoint of internal) {
        const response = await h.call('post', '/api/notifications/push-subscriptions', { userId: ana }).send({ endpoint, keys: browserKeys().json });
        expect([endpoint, response.status, response.body.message]).toEqual([endpoint, 400, 'endpoint must be a public push service']);
      }
      const unresolved = await h.call('post', '/api/notifications/push-subscriptions', { userId: ana }).send({ endpoint: 'https://push.invalid/x', keys: browserKeys().json });
      expect([unresolved.status, unresolved.body.message]).toEqual([400, "endpoint's host does not resolve"]);
      expect(await h.query('SELECT 1 FROM push_subscriptions')).toEqual([]);
      expect(local.connections()).toBe(0);
    });

    it('refuses again when the push connects: a subscription whose host is internal by then is never reached', async () => {
      // As if the name had resolved to a public address when it was registered (DNS rebinding),
      // or was registered before this rule: the row is there, its host is internal now.
      const keys = browserKeys().json;
      const rows = [`https://${hostname()}:${local.port}/rebound`, `https://127.0.0.1:${local.port}/literal`, `https://localhost.:${local.port}/dot`].map((endpoint) => ({ id: randomUUID(), endpoint }));
      for (const row of rows) {
        await h.query('INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4, $5)', [row.id, ana, row.endpoint, keys.p256dh, keys.auth]);
      }
      await follow(h, ana);
      // The delivery queued one push per subscription; each is given up at once, not retried.
      const changes = async () => (await h.query<{ id: string }>("SELECT id FROM outbox WHERE type = 'notifications.notification.changed'")).map((r) => r.id);
      await waitFor(async () => (await changes()).length > 0 && (await h.query("SELECT 1 FROM inbox WHERE consumer = 'notifications-delivery'")).length > 0);
      const jobs = (await changes()).flatMap((change) => rows.map((row) => `push-${change}-${row.id}`));
      await waitFor(async () => {
        for (const job of jobs) if (await h.queue.isPending(NotificationJobs.DeliverPush, job)) return false;
        return true;
      });
      expect(local.connections()).toBe(0);
    });
  });

  describe('a test push service on loopback, opened by name', () => {
    let h: NotificationsHarness;
    let pushService: Awaited<ReturnType<typeof startPushService>>;
    let other: Awaited<ReturnType<typeof listener>>;
    let ana: string;

    beforeAll(async () => {
      pushService = await startPushService();
      other = await listener('127.0.0.2');
      // Only 127.0.0.1 is opened, as the tests' and the bench's PUSH_ALLOW_PRIVATE_ADDRESSES do.
      h = await startHarness('notifaddrpush', { pushCa: pushService.ca, pushAddresses: { allowedPrivateRanges: ['127.0.0.1/32'] } });
      ana = await h.person('ana', 'Ana');
    });

    afterAll(async () => {
      await h?.close();
      await pushService?.close();
      await close(other.server);
    });

    it('delivers to the opened address and nowhere else on loopback', async () => {
      await h.call('post', '/api/notifications/push-subscriptions', { userId: ana }).send({ endpoint: `${pushService.origin}/push/ana`, keys: browserKeys().json }).expect(201);
      const refused = await h.call('post', '/api/notifications/push-subscriptions', { userId: ana }).send({ endpoint: `https://127.0.0.2:${other.port}/push`, keys: browserKeys().json });
      expect([refused.status, refused.body.message]).toEqual([400, 'endpoint must be a public push service']);
      const keys = browserKeys().json;
      await h.query('INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4, $5)', [randomUUID(), ana, `https://127.0.0.2:${other.port}/stored`, keys.p256dh, keys.auth]);
      await follow(h, ana);
      await waitFor(() => pushService.received.some((r) => r.path === '/push/ana'));
      await new Promise((r) => setTimeout(r, 500));
      expect(other.connections()).toBe(0);
    });
  });

  describe('an allow-list of push services', () => {
    let h: NotificationsHarness;
    let ana: string;

    beforeAll(async () => {
      h = await startHarness('notifaddrlist', { pushAddresses: { allowedHosts: ['fcm.googleapis.com', '*.push.services.mozilla.com', '*.notify.windows.com', 'web.push.apple.com'] } });
      ana = await h.person('ana', 'Ana');
    });

    afterAll(async () => {
      await h?.close();
    });

    it('refuses a host that is not on it, before any lookup', async () => {
      for (const endpoint of ['https://push.example.net/x', 'https://fcm.googleapis.com.example.net/x', 'https://8.8.8.8/x', `https://${hostname()}:5432/x`]) {
        const response = await h.call('post', '/api/notifications/push-subscriptions', { userId: ana }).send({ endpoint, keys: browserKeys().json });
        expect([endpoint, response.status, response.body.message]).toEqual([endpoint, 400, 'endpoint must be on a push service this server sends to']);
      }
    });
  });

  it('takes internal ranges for tests only as ranges: a yes/no setting is refused at start', () => {
    const base = { NATS_URL: undefined, INTERNAL_SECRET: undefined };
    for (const value of ['true', '1', 'yes', 'localhost', '127.0.0.1/33']) {
      expect(() => loadConfig(NotificationsConfig, { ...base, PUSH_ALLOW_PRIVATE_ADDRESSES: value })).toThrow(/PUSH_ALLOW_PRIVATE_ADDRESSES: must be address ranges in CIDR form/);
    }
    const config = loadConfig(NotificationsConfig, { ...base, PUSH_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32, ::1/128', PUSH_ALLOWED_HOSTS: 'fcm.googleapis.com,*.push.services.mozilla.com' });
    expect(config.pushAddresses()).toEqual({ allowedHosts: ['fcm.googleapis.com', '*.push.services.mozilla.com'], allowedPrivateRanges: ['127.0.0.1/32', '::1/128'] });
    expect(loadConfig(NotificationsConfig, base).pushAddresses()).toEqual({ allowedHosts: [], allowedPrivateRanges: [] });
  });
});
