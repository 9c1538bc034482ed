import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { type BusMessage } from '@timeliner/platform';
import { deleteBusStreams, testNatsUrl } from '@timeliner/platform/testing';
import { AuthEvents, RevocationReason, SocialEvents, TimelineCommentAddedSchema, Visibility } from '@timeliner/proto';
import { type SocialHarness, startHarness, waitFor } from './harness.js';

/** The social service on the real NATS: the access question, the events it consumes and the one it publishes. */
describe('social service on NATS', () => {
  let h: SocialHarness;
  const seen: BusMessage[] = [];

  beforeAll(async () => {
    h = await startHarness('socialbus', { nats: true });
    await h.bus.subscribe('social.>', (m) => void seen.push(m));
  });
  afterAll(async () => {
    const prefix = h.prefix;
    await h.close();
    await deleteBusStreams(testNatsUrl(), prefix);
  });

  it('publishes TimelineCommentAdded exactly once, with metadata', async () => {
    const { world } = h;
    await h.register(world.collaborator, 'cleo', 'Cleo Collaborator');
    const res = await h.call('post', `/api/timelines/${world.privateTimeline}/comments`, { userId: world.collaborator }).send({ content: 'On the bus with @Ana' }).expect(201);
    expect(res.body.userName).toBe('Cleo Collaborator');
    const mine = () => seen.filter((m) => m.subject === SocialEvents.TimelineCommentAdded.subject && fromBinary(TimelineCommentAddedSchema, m.data).commentId === res.body.id);
    await waitFor(() => mine().length > 0);
    // Time for a duplicate to show up, had the relay sent it twice.
    await new Promise((r) => setTimeout(r, 500));
    expect(mine()).toHaveLength(1);
    const event = mine()[0]!;
    expect(event.meta).toMatchObject({ type: 'social.timeline_comment.added', version: 1, actorUserId: world.collaborator, requestId: expect.stringMatching(/^test-/) });
    // It names the timeline's owner, visibility and title, so its consumers need no copy of the timeline.
    expect(fromBinary(TimelineCommentAddedSchema, event.data)).toMatchObject({
      commentId: res.body.id, timelineId: world.privateTimeline, userId: world.collaborator, mentions: ['ana'],
      ownerId: world.owner, timelineVisibility: Visibility.PRIVATE, timelineTitle: 'Private',
    });

    const [row] = await h.query<{ pending: string }>('SELECT count(*) AS pending FROM outbox WHERE dispatched_at IS NULL');
    expect(Number(row?.pending)).toBe(0);
  });

  it('keeps its people from the durable stream, once per event even when published twice', async () => {
    const userId = randomUUID();
    const id = await h.publish(AuthEvents.UserRegistered, { userId, username: 'jet', displayName: 'Jet Stream', email: 'jet@example.com' });
    await h.publish(AuthEvents.UserRegistered, { userId, username: 'jet', displayName: 'Jet Stream', email: 'jet@example.com' }, id);
    await waitFor(async () => (await h.query('SELECT 1 FROM users WHERE id = $1', [userId])).length === 1);
    const inbox = await h.query<{ n: string }>(`SELECT count(*) AS n FROM inbox WHERE consumer = 'social' AND event_id = $1`, [id]);
    expect(Number(inbox[0]!.n)).toBe(1);
  });

  it('applies a profile change that comes before the registration once the registration is in (JetStream)', async () => {
    const userId = randomUUID();
    const update = await h.publish(AuthEvents.UserUpdated, { userId, displayName: 'Later Name' });
    await new Promise((r) => setTimeout(r, 300));
    expect(await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [update])).toHaveLength(0);
    await h.publish(AuthEvents.UserRegistered, { userId, username: 'early', displayName: 'First Name', email: 'early@example.com' });
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [update])).length === 1, 10_000);
    const [row] = await h.query<{ display_name: string }>('SELECT display_name FROM users WHERE id = $1', [userId]);
    expect(row?.display_name).toBe('Later Name');
  });

  it('keeps the newest profile version when profile changes are handled out of order', async () => {
    const userId = randomUUID();
    const profile = (version: number, name: string) => ({ userId, username: 'ordered', displayName: name, avatar: '', isPrivate: false, email: 'o@example.com', profileVersion: BigInt(version) });
    const applied = async (id: string) => waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).length === 1, 10_000);
    await applied(await h.publish(AuthEvents.UserRegistered, { userId, username: 'ordered', displayName: 'One', email: 'o@example.com', profileVersion: 1n }));
    await applied(await h.publish(AuthEvents.UserUpdated, profile(3, 'Three')));
    await applied(await h.publish(AuthEvents.UserUpdated, profile(2, 'Two')));
    await applied(await h.publish(AuthEvents.UserRegistered, { userId, username: 'ordered', displayName: 'One', email: 'o@example.com', profileVersion: 1n }));
    const [row] = await h.query<{ display_name: string; v: number }>('SELECT display_name, profile_version::int AS v FROM users WHERE id = $1', [userId]);
    expect(row).toEqual({ display_name: 'Three', v: 3 });
  });

  it('takes a profile change or a registration that comes after the account\'s deletion as moot, at once', async () => {
    const userId = randomUUID();
    await h.register(userId, 'leaving', 'Leaving Soon');
    await h.publish(AuthEvents.SessionRevoked, { sessionId: randomUUID(), userId, tokenHash: 'd'.repeat(64), reason: RevocationReason.ACCOUNT_DELETED });
    await waitFor(async () => (await h.query('SELECT 1 FROM users WHERE id = $1', [userId])).length === 0);
    const started = Date.now();
    const late = [
      await h.publish(AuthEvents.UserUpdated, { userId, displayName: 'Renamed Before Leaving' }),
      await h.publish(AuthEvents.UserRegistered, { userId, username: 'leaving', displayName: 'Leaving Soon', email: 'leaving@example.com' }),
    ];
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = ANY($1::uuid[])', [late])).length === 2);
    expect(Date.now() - started).toBeLessThan(900); // not tried again
    expect(await h.query('SELECT 1 FROM users WHERE id = $1', [userId])).toEqual([]);
  });

  it('asks the timelines service over NATS and answers 503 when nobody answers', async () => {
    await h.call('get', `/api/timelines/${h.world.publicTimeline}/comments`).expect(200);
    await h.stopTimelines();
    try {
      const res = await h.call('get', `/api/timelines/${h.world.publicTimeline}/comments`).expect(503);
      expect(res.body.message).toBe('Timelines service unavailable');
    } finally {
      await h.startTimelines();
    }
  });
});
