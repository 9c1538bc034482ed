import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SocialEvents } from '@timeliner/proto';
import { DEFAULT_PUSH_LIMITS } from '../src/push/push-gate.js';
import { PUSH_SEND_TIMEOUT_MS } from '../src/push/push-sender.js';
import { type NotificationsHarness, startHarness, waitFor } from './harness.js';
import { browserKeys, startPushService } from './push-service.js';

/**
 * How long after the sender drops a connection the tarpit may see it close: the drop and the next
 * connection can reach this process in one poll of the event loop, in either order.
 */
const CLOSE_SEEN_WITHIN_MS = 100;

/**
 * A push held behind the silent sends would wait for one of them to reach its time limit (5 s):
 * arriving sooner, it was not held. The bar itself (2 s, DESIGN.md §8) is measured by
 * `bench/notifications.mjs` (its fairness phase), not here, where three test files share two cores.
 */
const NOT_HELD_MS = PUSH_SEND_TIMEOUT_MS - 500;

/** A push service that accepts connections and never answers; it counts the ones open at once. */
async function startTarpit() {
  const open = new Set<Socket>();
  const lifetimes: number[] = [];
  /** Every connection's [opened, closed] (closed is Infinity while open), ms. */
  const spans: Array<[number, number]> = [];
  let since = 0;
  const server: Server = createServer((socket) => {
    const span: [number, number] = [performance.now(), Infinity];
    spans.push(span);
    open.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      open.delete(socket);
      span[1] = performance.now();
      lifetimes.push(span[1] - span[0]);
    });
    // Read and drop what comes (so a close by the sender is seen), answer nothing.
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => open.size,
    /** How long each closed connection stayed open, ms. */
    lifetimes,
    /**
     * The most connections open at once since the last reset: at each opening, the others open
     * then and not seen closing within CLOSE_SEEN_WITHIN_MS of it.
     */
    most: () => {
      let most = 0;
      for (const [opened] of spans) {
        if (opened < since) continue;
        most = Math.max(most, spans.filter(([start, end]) => start <= opened && end > opened + CLOSE_SEEN_WITHIN_MS).length);
      }
      return most;
    },
    resetMost: () => void (since = performance.now()),
    close: () => {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * One person's dead push endpoints never delay another person's push by more than 2 s
 * (DESIGN.md §8): sends are bounded per person and per push service host, so the push workers a
 * silent push service holds are never all of them, and each send has a time limit.
 */
describe('Web Push fairness', () => {
  let h: NotificationsHarness;
  let pushService: Awaited<ReturnType<typeof startPushService>>;
  let tarpit: Awaited<ReturnType<typeof startTarpit>>;
  let fans = 0;

  const subscribe = (userId: string, endpoint: string) =>
    h.call('post', '/api/notifications/push-subscriptions', { userId }).send({ endpoint, keys: browserKeys().json }).expect(201);
  /** A new follower of `followeeId`: a notification, pushed (no other service's data needed). */
  const follow = async (followeeId: string) => {
    const followerId = await h.person(`fan${++fans}`);
    return h.publish(SocialEvents.FollowChanged, { followerId, followeeId, active: true, followersCount: 1n, followersVersion: 1n, followingCount: 1n, followingVersion: 1n });
  };
  /** Milliseconds from a follow of `userId` to its push reaching the push service. */
  const pushTime = async (userId: string, path: string) => {
    const before = pushService.received.filter((r) => r.path === path).length;
    const started = performance.now();
    await follow(userId);
    await waitFor(() => pushService.received.filter((r) => r.path === path).length > before, 15_000);
    return performance.now() - started;
  };

  beforeAll(async () => {
    pushService = await startPushService();
    tarpit = await startTarpit();
    // The production limits and time limit; only the retry back-off is the harness's short one.
    h = await startHarness('notiffair', { pushCa: pushService.ca });
  });

  afterAll(async () => {
    await h?.close();
    await pushService?.close();
    await tarpit?.close();
  });

  it("one person's silent endpoints do not hold another person's push", async () => {
    const ana = await h.person('ana', 'Ana');
    const ben = await h.person('ben', 'Ben');
    await subscribe(ben, `${pushService.origin}/push/ben`);
    const quiet = await pushTime(ben, '/push/ben');
    for (let i = 0; i < 10; i++) await subscribe(ana, `${tarpit.origin}/push/ana-${i}`);
    await follow(ana);
    await waitFor(() => tarpit.open() > 0);
    const held = await pushTime(ben, '/push/ben');
    expect({ quiet, held: held < NOT_HELD_MS }).toEqual({ quiet: expect.any(Number), held: true });
    // Ana's pushes were still being tried, never more than her share at once.
    expect(tarpit.open()).toBeGreaterThan(0);
    expect(tarpit.most()).toBeLessThanOrEqual(DEFAULT_PUSH_LIMITS.perPerson);
    // A silent send is given up at its time limit (5 s), not held.
    await waitFor(() => tarpit.lifetimes.length > 0, 15_000);
    expect(Math.max(...tarpit.lifetimes)).toBeLessThan(PUSH_SEND_TIMEOUT_MS + 1_500);
  }, 60_000);

  it('a silent push service shared by many people holds at most its share of the workers', async () => {
    tarpit.resetMost();
    const people = await Promise.all(['cy', 'di', 'ed', 'flo', 'gil', 'hu'].map((name) => h.person(name)));
    for (const person of people) for (let i = 0; i < 4; i++) await subscribe(person, `${tarpit.origin}/push/${person}-${i}`);
    const ivy = await h.person('ivy', 'Ivy');
    await subscribe(ivy, `${pushService.origin}/push/ivy`);
    for (const person of people) await follow(person);
    await waitFor(() => tarpit.open() >= DEFAULT_PUSH_LIMITS.perHost);
    expect(await pushTime(ivy, '/push/ivy')).toBeLessThan(NOT_HELD_MS);
    expect(tarpit.most()).toBe(DEFAULT_PUSH_LIMITS.perHost);
  }, 60_000);
});
