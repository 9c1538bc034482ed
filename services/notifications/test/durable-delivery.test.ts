import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EventBus, WorkQueue } from '@timeliner/platform';
import { Reaction, type RealtimeMessage, SocialEvents, TargetType, Visibility } from '@timeliner/proto';
import { type NotificationsHarness, startHarness, waitFor } from './harness.js';
import { browserKeys, decrypt, startPushService } from './push-service.js';

/** What the service's connection to NATS refuses, switched on and off by the tests. */
const refuse = { ownEvents: false, broadcasts: 0, enqueues: false };

/** The service's view of the bus: its own events' publishing and the `/ws` broadcasts may fail. */
const faultyBus = (bus: EventBus): EventBus => ({
  publish: (message) => (refuse.ownEvents && message.subject.startsWith('notifications.') ? Promise.reject(new Error('NATS refused the publish')) : bus.publish(message)),
  consume: (options, handler) => bus.consume(options, handler),
  broadcast: (message) => {
    if (refuse.broadcasts > 0) {
      refuse.broadcasts--;
      return Promise.reject(new Error('NATS refused the broadcast'));
    }
    return bus.broadcast(message);
  },
  subscribe: (subject, handler) => bus.subscribe(subject, handler),
  request: (subject, data, options) => bus.request(subject, data, options),
  respond: (subject, queue, handler) => bus.respond(subject, queue, handler),
  isHealthy: () => bus.isHealthy(),
  close: async () => undefined,
});

const faultyQueue = (queue: WorkQueue): WorkQueue => ({
  enqueue: (definition, payload, options) => (refuse.enqueues ? Promise.reject(new Error('NATS refused the job')) : queue.enqueue(definition, payload, options)),
  process: (definition, options, handler) => queue.process(definition, options, handler),
  isPending: (definition, id) => queue.isPending(definition, id),
  isHealthy: () => queue.isHealthy(),
  close: async () => undefined,
});

/**
 * Nothing is lost on failure: a notification committed while its live message and push could
 * not be sent (the process stopped right after the commit, NATS refused them) still reaches the
 * person's sockets and browser afterwards, exactly once.
 */
describe('live messages and pushes after a failure', () => {
  let h: NotificationsHarness;
  let pushService: Awaited<ReturnType<typeof startPushService>>;
  let ana: string, ben: string;
  let version = 0n;
  const browser = browserKeys();
  let live: RealtimeMessage[];

  const like = (ownerId: string, userId: string, targetId: string) =>
    h.publish(SocialEvents.ReactionChanged, { targetType: TargetType.TIMELINE, targetId, timelineId: targetId, ownerId, timelineVisibility: Visibility.PUBLIC, userId, reaction: Reaction.LIKE, active: true, count: 1n, countVersion: ++version }, { actorUserId: userId });
  const pushes = () => pushService.received.filter((r) => r.path === '/push/ana').map((r) => JSON.parse(decrypt(r.body, browser)) as { body: string; unreadCount: number });
  const told = () => live.filter((m) => m.type === 'notification');
  /** Long enough for any redelivery (200 ms, 1 s) and retry to have happened. */
  const settle = () => new Promise((r) => setTimeout(r, 2_000));

  beforeAll(async () => {
    pushService = await startPushService();
    h = await startHarness('notifdurable', { pushCa: pushService.ca, bus: faultyBus, queue: faultyQueue });
    ana = await h.person('ana', 'Ana');
    ben = await h.person('ben', 'Ben');
    await h.call('post', '/api/notifications/push-subscriptions', { userId: ana }).send({ endpoint: `${pushService.origin}/push/ana`, keys: browser.json }).expect(201);
    live = await h.listen(ana);
  });

  afterAll(async () => {
    await h?.close();
    await pushService?.close();
  });

  it('tells and pushes a notification committed just before the service stopped, once it runs again', async () => {
    // The like is applied and committed, but nothing after the commit gets out of the process.
    Object.assign(refuse, { ownEvents: true, broadcasts: Infinity, enqueues: true });
    await like(ana, ben, randomUUID());
    expect(await h.query('SELECT 1 FROM notifications WHERE recipient_id = $1', [ana])).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(told()).toEqual([]);
    expect(pushes()).toEqual([]);

    Object.assign(refuse, { ownEvents: false, broadcasts: 0, enqueues: false });
    await h.restart({ bus: faultyBus, queue: faultyQueue });

    await waitFor(() => told().length > 0 && pushes().length > 0).catch(() => undefined);
    await settle();
    expect(told()).toEqual([expect.objectContaining({ unreadCount: 1, notification: expect.objectContaining({ kind: 'like', text: 'Ben liked your timeline' }) })]);
    expect(pushes()).toEqual([expect.objectContaining({ body: 'Ben liked your timeline', unreadCount: 1 })]);
  });

  it('retries a delivery that failed after its push was queued, without pushing twice', async () => {
    const before = { told: told().length, pushes: pushes().length };
    // The push is queued, then the live message is refused once: the delivery is tried again.
    refuse.broadcasts = 1;
    await like(ana, ben, randomUUID());
    await waitFor(() => told().length > before.told && pushes().length > before.pushes).catch(() => undefined);
    await settle();
    expect(refuse.broadcasts).toBe(0);
    expect(told().slice(before.told)).toEqual([expect.objectContaining({ unreadCount: 2, notification: expect.objectContaining({ kind: 'like' }) })]);
    expect(pushes().slice(before.pushes)).toEqual([expect.objectContaining({ body: 'Ben liked your timeline', unreadCount: 2 })]);
  });
});
