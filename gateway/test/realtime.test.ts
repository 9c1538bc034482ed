import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { broadcastRealtime, serveRpc, type Subscription } from '@timeliner/platform';
import { create, type DescMessage, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import { type EventDefinition, Realtime, type RealtimeMessage, SocialEvents, TimelinesEvents, TimelinesRpc } from '@timeliner/proto';
import { type FakeUpstream, startFakeUpstream } from './support/fake-upstream.js';
import { type RunningGateway, SECRET, startGateway } from './support/start-gateway.js';
import { BUS_KINDS, FakeAuthResponder, openTestBus, type TestBus } from './support/test-bus.js';
import { TestSocket } from './support/ws-client.js';

const progress = (timelineId: string, percent: number): RealtimeMessage => ({
  type: 'video_processing_progress',
  timelineId,
  videoId: randomUUID(),
  progress: { stage: 'transcoding', progress: percent, message: `${percent}%` },
});

describe.each(BUS_KINDS)('/ws over the %s bus', (kind) => {
  let bus: TestBus;
  let upstream: FakeUpstream;
  let gateway: RunningGateway;
  let auth: FakeAuthResponder;
  let wsUrl: string;

  beforeAll(async () => {
    bus = await openTestBus(kind, 'gwrealtime');
    upstream = await startFakeUpstream(SECRET);
    auth = await new FakeAuthResponder(bus.services).start();
    gateway = await startGateway({ bus: bus.gateway, services: { auth: upstream.url } });
    wsUrl = `${gateway.url.replace(/^http/, 'ws')}/ws`;
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await bus?.close();
  });

  /** A socket signed in as a fresh user. */
  const signedIn = async () => {
    const session = auth.signIn();
    const socket = await TestSocket.open(wsUrl);
    socket.send({ type: 'auth', token: session.token });
    expect(await socket.next()).toEqual({ type: 'authenticated', userId: session.userId });
    return { socket, session };
  };

  it('delivers messages of the signed-in user’s own topic, as broadcast', async () => {
    const { socket, session } = await signedIn();
    socket.send({ type: 'subscribe', topic: `user:${session.userId}` });
    expect(await socket.next()).toEqual({ type: 'subscribed', topic: `user:${session.userId}` });

    const message = progress(randomUUID(), 40);
    await broadcastRealtime(bus.services, Realtime.userSubject(session.userId), message);
    expect(await socket.next()).toEqual(message);

    socket.send({ type: 'unsubscribe', topic: `user:${session.userId}` });
    expect(await socket.next()).toEqual({ type: 'unsubscribed', topic: `user:${session.userId}` });
    await broadcastRealtime(bus.services, Realtime.userSubject(session.userId), progress(randomUUID(), 50));
    expect(await socket.silentFor(200)).toBe(true);
    socket.close();
  });

  it('lets subscribe follow auth without waiting for the answer', async () => {
    const session = auth.signIn();
    const socket = await TestSocket.open(wsUrl);
    socket.send({ type: 'auth', token: session.token });
    socket.send({ type: 'subscribe', topic: `user:${session.userId}` });
    expect((await socket.next()).type).toBe('authenticated');
    expect(await socket.next()).toEqual({ type: 'subscribed', topic: `user:${session.userId}` });
    socket.close();
  });

  it('refuses another user’s topic and, with no timelines service to ask, any timeline', async () => {
    const { socket } = await signedIn();
    const other = `user:${randomUUID()}`;
    socket.send({ type: 'subscribe', topic: other });
    expect(await socket.next()).toEqual({ type: 'error', message: 'Not allowed', topic: other });
    const timeline = `timeline:${randomUUID()}`;
    socket.send({ type: 'subscribe', topic: timeline });
    expect(await socket.next()).toEqual({ type: 'error', message: 'Not allowed', topic: timeline });
    socket.send({ type: 'subscribe', topic: 'timeline:not-a-uuid' });
    expect(await socket.next()).toMatchObject({ type: 'error', message: 'Unknown topic' });
    socket.close();
  });

  it('delivers a person\'s notifications to their own sockets only', async () => {
    const a = await signedIn();
    const b = await signedIn();
    for (const { socket, session } of [a, b]) {
      socket.send({ type: 'subscribe', topic: `user:${session.userId}` });
      expect(await socket.next()).toEqual({ type: 'subscribed', topic: `user:${session.userId}` });
    }
    b.socket.send({ type: 'subscribe', topic: `user:${a.session.userId}` });
    expect(await b.socket.next()).toEqual({ type: 'error', message: 'Not allowed', topic: `user:${a.session.userId}` });

    const post = randomUUID();
    const notification: RealtimeMessage = {
      type: 'notification',
      unreadCount: 1,
      notification: {
        id: randomUUID(), type: 'like', kind: 'like', userId: a.session.userId, actorId: b.session.userId, targetType: 'post', targetId: post,
        count: 1, actors: [], read: false, link: `/post/${post}`, text: 'Ben liked your post', message: 'Ben liked your post',
        target: { type: 'post', id: post, timelineId: null, title: null }, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(),
      },
    };
    await broadcastRealtime(bus.services, Realtime.userSubject(a.session.userId), notification);
    expect(await a.socket.next()).toEqual(notification);
    expect(await b.socket.silentFor(200)).toBe(true);
    a.socket.close();
    b.socket.close();
  });

  it('asks the timelines service about timeline topics and delivers what it allows', async () => {
    const allowed = randomUUID();
    let responder: Subscription | undefined;
    try {
      responder = await serveRpc(bus.services, TimelinesRpc.CheckAccess, 'timelines', async ({ timelineId }) => ({ canView: timelineId === allowed }));
      const { socket } = await signedIn();
      socket.send({ type: 'subscribe', topic: `timeline:${allowed}` });
      expect(await socket.next()).toEqual({ type: 'subscribed', topic: `timeline:${allowed}` });
      socket.send({ type: 'subscribe', topic: `timeline:${randomUUID()}` });
      expect(await socket.next()).toMatchObject({ type: 'error', message: 'Not allowed' });

      const message = progress(allowed, 80);
      await broadcastRealtime(bus.services, Realtime.timelineSubject(allowed), progress(randomUUID(), 1));
      await broadcastRealtime(bus.services, Realtime.timelineSubject(allowed), message);
      const received = await socket.next();
      // The first broadcast named another timeline in its payload but was sent on this one's subject.
      expect(received.type).toBe('video_processing_progress');
      expect(await socket.next()).toEqual(message);
      socket.close();
    } finally {
      await responder?.unsubscribe();
    }
  });

  it('ends the subscriptions of those who lose access to a timeline, on the change itself, and all of them on deletion', async () => {
    const timelineId = randomUUID();
    const canView = new Set<string>();
    const responder = await serveRpc(bus.services, TimelinesRpc.CheckAccess, 'timelines', async ({ timelineId: asked, userId }) => ({ canView: asked === timelineId && canView.has(userId) }));
    const publish = async <S extends DescMessage>(definition: EventDefinition<S>, payload: MessageInitShape<S>) =>
      bus.services.publish({
        subject: definition.subject,
        meta: { id: randomUUID(), type: definition.type, version: definition.version, occurredAt: new Date().toISOString() },
        data: toBinary(definition.schema, create(definition.schema, payload)),
      });
    try {
      const removed = await signedIn();
      const kept = await signedIn();
      canView.add(removed.session.userId);
      canView.add(kept.session.userId);
      const topic = `timeline:${timelineId}`;
      for (const { socket } of [removed, kept]) {
        socket.send({ type: 'subscribe', topic });
        expect(await socket.next()).toEqual({ type: 'subscribed', topic });
      }

      canView.delete(removed.session.userId);
      await publish(TimelinesEvents.CollaboratorRemoved, { timelineId, userId: removed.session.userId });
      expect(await removed.socket.next()).toEqual({ type: 'unsubscribed', topic, reason: 'access-revoked' });
      const message = progress(timelineId, 10);
      await broadcastRealtime(bus.services, Realtime.timelineSubject(timelineId), message);
      expect(await kept.socket.next()).toEqual(message);
      expect(await removed.socket.silentFor(200)).toBe(true);

      await publish(TimelinesEvents.TimelineDeleted, { timelineId, creatorId: randomUUID() });
      expect(await kept.socket.next()).toEqual({ type: 'unsubscribed', topic, reason: 'access-revoked' });
      await broadcastRealtime(bus.services, Realtime.timelineSubject(timelineId), progress(timelineId, 20));
      expect(await kept.socket.silentFor(200)).toBe(true);
      removed.socket.close();
      kept.socket.close();
    } finally {
      await responder.unsubscribe();
    }
  });

  it('ends the subscriptions of a blocked person, a removed follower and everyone but the owner of a hidden timeline, asking again while the timelines service catches up', async () => {
    const timelineId = randomUUID();
    const canView = new Set<string>();
    const responder = await serveRpc(bus.services, TimelinesRpc.CheckAccess, 'timelines', async ({ timelineId: asked, userId }) => ({ canView: asked === timelineId && canView.has(userId) }));
    const publish = async <S extends DescMessage>(definition: EventDefinition<S>, payload: MessageInitShape<S>) =>
      bus.services.publish({
        subject: definition.subject,
        meta: { id: randomUUID(), type: definition.type, version: definition.version, occurredAt: new Date().toISOString() },
        data: toBinary(definition.schema, create(definition.schema, payload)),
      });
    const owner = randomUUID();
    try {
      const [blocked, follower, stranger, elsewhere] = [await signedIn(), await signedIn(), await signedIn(), await signedIn()];
      const topic = `timeline:${timelineId}`;
      for (const { socket, session } of [blocked, follower, stranger]) {
        canView.add(session.userId);
        socket.send({ type: 'subscribe', topic });
        expect(await socket.next()).toEqual({ type: 'subscribed', topic });
      }

      // The timelines service applies the block a moment after the gateway hears of it.
      await publish(SocialEvents.BlockChanged, { blockerId: owner, blockedId: blocked.session.userId, active: true, version: 1n });
      setTimeout(() => canView.delete(blocked.session.userId), 300);
      expect(await blocked.socket.next()).toEqual({ type: 'unsubscribed', topic, reason: 'access-revoked' });

      canView.delete(follower.session.userId);
      await publish(SocialEvents.FollowChanged, { followerId: follower.session.userId, followeeId: owner, active: false, followersVersion: 2n });
      expect(await follower.socket.next()).toEqual({ type: 'unsubscribed', topic, reason: 'access-revoked' });

      const message = progress(timelineId, 30);
      await broadcastRealtime(bus.services, Realtime.timelineSubject(timelineId), message);
      expect(await stranger.socket.next()).toEqual(message);
      expect(await blocked.socket.silentFor(200)).toBe(true);
      expect(await follower.socket.silentFor(200)).toBe(true);

      canView.delete(stranger.session.userId);
      await publish(SocialEvents.ContentModerated, { actionId: randomUUID(), contentType: 'timeline', contentId: timelineId, authorId: owner, hidden: true, version: 3n });
      expect(await stranger.socket.next()).toEqual({ type: 'unsubscribed', topic, reason: 'access-revoked' });
      await broadcastRealtime(bus.services, Realtime.timelineSubject(timelineId), progress(timelineId, 40));
      expect(await stranger.socket.silentFor(200)).toBe(true);
      expect(await elsewhere.socket.silentFor(50)).toBe(true);
      for (const { socket } of [blocked, follower, stranger, elsewhere]) socket.close();
    } finally {
      await responder.unsubscribe();
    }
  });

  it('closes a socket whose session is revoked', async () => {
    const { socket, session } = await signedIn();
    await auth.revoke(session);
    expect(await socket.closed).toEqual({ code: 4401, reason: 'Session revoked' });
  });

  it('never reads a token from the URL: such a socket still has to authenticate', async () => {
    const session = auth.signIn();
    const socket = await TestSocket.open(`${wsUrl}?token=${session.token}`);
    socket.send({ type: 'subscribe', topic: `user:${session.userId}` });
    expect(await socket.closed).toEqual({ code: 4401, reason: 'Authentication required' });
  });

  it('closes a socket that presents an invalid token', async () => {
    const socket = await TestSocket.open(wsUrl);
    socket.send({ type: 'auth', token: 'not-a-token' });
    expect(await socket.closed).toEqual({ code: 4401, reason: 'Invalid or expired session' });
  });

  it('closes sockets that do not speak the protocol, or send too much', async () => {
    const garbled = await TestSocket.open(wsUrl);
    garbled.send('{not json');
    expect(await garbled.closed).toEqual({ code: 4401, reason: 'Malformed message' });

    const { socket } = await signedIn();
    socket.send({ type: 'hello' });
    expect(await socket.next()).toEqual({ type: 'error', message: 'Unknown message type' });
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
    socket.send({ type: 'subscribe', topic: 'x'.repeat(5_000) });
    expect((await socket.closed).code).toBe(1009);
  });

  it('refuses a handshake from another site’s page', async () => {
    await expect(TestSocket.open(wsUrl, { origin: 'https://evil.example' })).rejects.toThrow('Unexpected server response: 403');
    const sameOrigin = await TestSocket.open(wsUrl, { origin: gateway.url });
    sameOrigin.close();
  });
});

describe('/ws lifecycle', () => {
  let bus: TestBus;
  let gateway: RunningGateway;
  let auth: FakeAuthResponder;

  beforeAll(async () => {
    bus = await openTestBus('in-process', 'gwwslife');
    auth = await new FakeAuthResponder(bus.services).start();
    gateway = await startGateway({ bus: bus.gateway, services: { auth: 'http://127.0.0.1:9' } });
  });

  afterAll(async () => {
    await gateway?.close();
    await bus?.close();
  });

  it('closes a socket that stays silent for 5 s', async () => {
    const socket = await TestSocket.open(`${gateway.url.replace(/^http/, 'ws')}/ws`);
    const started = Date.now();
    expect(await socket.closed).toEqual({ code: 4401, reason: 'Authentication required' });
    expect(Date.now() - started).toBeGreaterThan(4_500);
  }, 10_000);

  it('tells open sockets to reconnect elsewhere when it shuts down', async () => {
    const session = auth.signIn();
    const closing = await startGateway({ bus: bus.gateway, services: { auth: 'http://127.0.0.1:9' } });
    const socket = await TestSocket.open(`${closing.url.replace(/^http/, 'ws')}/ws`);
    socket.send({ type: 'auth', token: session.token });
    expect((await socket.next()).type).toBe('authenticated');
    await closing.close();
    expect(await socket.closed).toEqual({ code: 1001, reason: 'Server restarting' });
  });

  it('answers a plain GET /ws with 426', async () => {
    const { default: request } = await import('supertest');
    await request(gateway.url).get('/ws').expect(426);
  });
});
