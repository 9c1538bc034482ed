import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { type BusMessage } from '@timeliner/platform';
import { deleteBusStreams, testNatsUrl } from '@timeliner/platform/testing';
import { AuthEvents, SocialEvents, TimelineCommentAddedSchema } from '@timeliner/proto';
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
    expect(fromBinary(TimelineCommentAddedSchema, event.data)).toMatchObject({ commentId: res.body.id, timelineId: world.privateTimeline, userId: world.collaborator, mentions: ['ana'] });

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
