import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { AuthEvents, TimelineCommentAddedSchema, TimelinesEvents } from '@timeliner/proto';
import { type SocialHarness, startHarness, waitFor, type World } from './harness.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('timeline comments', () => {
  let h: SocialHarness;
  let w: World;
  beforeAll(async () => {
    h = await startHarness('socialcomments');
    w = h.world;
    await h.register(w.owner, 'olivia', 'Olivia Owner');
    await h.register(w.collaborator, 'cleo', 'Cleo Collaborator');
    await h.register(w.stranger, 'sam', '');
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.setTimelines('answer');
  });

  const comments = (timelineId: string) => `/api/timelines/${timelineId}/comments`;
  const post = (timelineId: string, userId: string, body: Record<string, unknown>) => h.call('post', comments(timelineId), { userId }).send(body);
  const count = async (sql = 'SELECT count(*) AS n FROM timeline_comments') => Number((await h.query<{ n: string }>(sql))[0]!.n);

  describe('writing', () => {
    it("accepts spec 000's {content}: the author is the caller, content trimmed, timestamp 0", async () => {
      const res = await post(w.publicTimeline, w.collaborator, { content: '  Great pacing  ' }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        content: 'Great pacing',
        timestamp: 0,
        userId: w.collaborator,
        userName: 'Cleo Collaborator',
        createdAt: expect.stringMatching(ISO),
        user: { id: w.collaborator, displayName: 'Cleo Collaborator', username: 'cleo', avatar: null },
        held: false,
        pinned: false,
      });
      const [row] = await h.query('SELECT timeline_id, user_id, user_name, content, timestamp FROM timeline_comments WHERE id = $1', [res.body.id]);
      expect(row).toEqual({ timeline_id: w.publicTimeline, user_id: w.collaborator, user_name: 'Cleo Collaborator', content: 'Great pacing', timestamp: 0 });
    });

    it("accepts spec 001's {content, timestamp, userId, userName}, ignoring the body's name", async () => {
      const res = await post(w.privateTimeline, w.owner, { content: 'Cut here', timestamp: 95, userId: w.owner.toUpperCase(), userName: 'Someone Else' }).expect(201);
      expect(res.body).toMatchObject({ content: 'Cut here', timestamp: 95, userId: w.owner, userName: 'Olivia Owner' });
      expect(res.body.user).toEqual({ id: w.owner, displayName: 'Olivia Owner', username: 'olivia', avatar: null });
    });

    it('never lets the body choose the author', async () => {
      const before = await count();
      const res = await post(w.publicTimeline, w.stranger, { content: 'Spoofed', userId: w.owner, userName: 'Olivia Owner' }).expect(403);
      expect(res.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'You can only comment as yourself' });
      expect(await count()).toBe(before);
    });

    it('keeps exactly 2000 characters and the full timestamp range', async () => {
      const res = await post(w.publicTimeline, w.stranger, { content: 'x'.repeat(2000), timestamp: 86_400 }).expect(201);
      expect(res.body.content).toHaveLength(2000);
      expect(res.body.timestamp).toBe(86_400);
    });

    it('shows the username when the display name is empty', async () => {
      const res = await post(w.publicTimeline, w.stranger, { content: 'hi' }).expect(201);
      expect(res.body.userName).toBe('sam');
    });

    it('writes TimelineCommentAdded to the outbox in the same transaction', async () => {
      const res = await post(w.publicTimeline, w.collaborator, { content: 'Event please', timestamp: 7 }).expect(201);
      const rows = await h.query<{ type: string; version: number; payload: Buffer; actor_user_id: string; request_id: string }>(
        `SELECT type, version, payload, actor_user_id, request_id FROM outbox WHERE type = 'social.timeline_comment.added' ORDER BY position DESC LIMIT 1`,
      );
      const event = rows[0]!;
      expect(event).toMatchObject({ type: 'social.timeline_comment.added', version: 1, actor_user_id: w.collaborator, request_id: expect.stringMatching(/^test-/) });
      const payload = fromBinary(TimelineCommentAddedSchema, event.payload);
      expect(payload).toMatchObject({ commentId: res.body.id, timelineId: w.publicTimeline, userId: w.collaborator });
      expect(timestampDate(payload.createdAt!).toISOString()).toBe(res.body.createdAt);
    });

    it('asks the timelines service on every call, never from a cache', async () => {
      const timeline = randomUUID();
      h.override(timeline, true);
      await post(timeline, w.stranger, { content: 'first' }).expect(201);
      h.override(timeline, false);
      await post(timeline, w.stranger, { content: 'second' }).expect(404);
      await h.call('get', comments(timeline), { userId: w.stranger }).expect(404);
      h.override(timeline, true);
      const list = await h.call('get', comments(timeline), { userId: w.stranger }).expect(200);
      expect(list.body.map((c: { content: string }) => c.content)).toEqual(['first']);
      expect(h.asked.filter((q) => q.timelineId === timeline)).toEqual(Array(4).fill({ timelineId: timeline, userId: w.stranger }));
    });
  });

  describe('reading', () => {
    it('lists newest first with the spec shape; anonymous callers read public timelines', async () => {
      const timeline = randomUUID();
      h.override(timeline, true);
      for (const content of ['one', 'two', 'three']) await post(timeline, w.collaborator, { content }).expect(201);
      const res = await h.call('get', comments(timeline)).expect(200);
      expect(res.body.map((c: { content: string }) => c.content)).toEqual(['three', 'two', 'one']);
      expect(res.body[0]).toEqual({
        id: expect.any(String),
        content: 'three',
        timestamp: 0,
        userId: w.collaborator,
        userName: 'Cleo Collaborator',
        createdAt: expect.stringMatching(ISO),
        user: { id: w.collaborator, displayName: 'Cleo Collaborator', username: 'cleo', avatar: null },
        held: false,
        pinned: false,
      });
      expect(res.headers['x-next-cursor']).toBeUndefined();
      expect(h.asked.at(-1)).toEqual({ timelineId: timeline, userId: '' });
    });

    it('pages by cursor without skipping or repeating rows, even with equal times', async () => {
      const timeline = randomUUID();
      h.override(timeline, true);
      // 7 comments, 4 of them in the same microsecond.
      await h.query(
        `INSERT INTO timeline_comments (id, timeline_id, user_id, user_name, content, timestamp, created_at)
         SELECT gen_random_uuid(), $1, $2, 'Cleo Collaborator', 'c' || i, 0,
                CASE WHEN i <= 4 THEN timestamptz '2025-01-01 10:00:00.123456+00' ELSE timestamptz '2025-01-01 10:00:00+00' + i * interval '1 minute' END
           FROM generate_series(1, 7) AS i`,
        [timeline, w.collaborator],
      );
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await h.call('get', `${comments(timeline)}?limit=3${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
        seen.push(...res.body.map((c: { id: string }) => c.id));
        cursor = res.headers['x-next-cursor'];
        pages += 1;
      } while (cursor);
      expect(pages).toBe(3);
      const expected = await h.query<{ id: string }>('SELECT id FROM timeline_comments WHERE timeline_id = $1 ORDER BY created_at DESC, id DESC', [timeline]);
      expect(seen).toEqual(expected.map((r) => r.id));
    });

    it('answers 50 by default and at most 100', async () => {
      const timeline = randomUUID();
      h.override(timeline, true);
      await h.query(
        `INSERT INTO timeline_comments (id, timeline_id, user_id, content, created_at)
         SELECT gen_random_uuid(), $1, $2, 'c' || i, now() - i * interval '1 second' FROM generate_series(1, 120) AS i`,
        [timeline, w.collaborator],
      );
      const first = await h.call('get', comments(timeline)).expect(200);
      expect(first.body).toHaveLength(50);
      expect(first.headers['x-next-cursor']).toEqual(expect.any(String));
      const big = await h.call('get', `${comments(timeline)}?limit=100`).expect(200);
      expect(big.body).toHaveLength(100);
      const rest = await h.call('get', `${comments(timeline)}?limit=100&cursor=${big.headers['x-next-cursor']}`).expect(200);
      expect(rest.body).toHaveLength(20);
      expect(rest.headers['x-next-cursor']).toBeUndefined();
    });

    it('hides a private timeline from strangers and anonymous callers (404, as for a missing one)', async () => {
      await post(w.privateTimeline, w.collaborator, { content: 'team only' }).expect(201);
      const stranger = await h.call('get', comments(w.privateTimeline), { userId: w.stranger }).expect(404);
      const anonymous = await h.call('get', comments(w.privateTimeline)).expect(404);
      const missing = await h.call('get', comments(w.missingTimeline), { userId: w.stranger }).expect(404);
      expect(stranger.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Timeline not found' });
      expect(anonymous.body).toEqual(stranger.body);
      expect(missing.body).toEqual(stranger.body);
    });
  });

  describe('when the timelines service cannot answer', () => {
    it.each(['fail', 'hang'] as const)('timelines service %s → 503, nothing written', async (mode) => {
      h.setTimelines(mode);
      const before = await count();
      const started = Date.now();
      const write = await post(w.publicTimeline, w.collaborator, { content: 'lost?' }).expect(503);
      const read = await h.call('get', comments(w.publicTimeline)).expect(503);
      expect(write.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'Timelines service unavailable' });
      expect(read.body).toEqual(write.body);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(await count()).toBe(before);
    });

    it('no timelines service at all → 503', async () => {
      await h.stopTimelines();
      try {
        const res = await h.call('get', comments(w.publicTimeline)).expect(503);
        expect(res.body.message).toBe('Timelines service unavailable');
      } finally {
        await h.startTimelines();
      }
      await h.call('get', comments(w.publicTimeline)).expect(200);
    });
  });

  describe('people and timelines from events', () => {
    it('a comment written before its author is known here gets the name once the registration arrives', async () => {
      const newcomer = randomUUID();
      const res = await post(w.publicTimeline, newcomer, { content: 'first!' }).expect(201);
      expect(res.body).toMatchObject({ userName: 'Unknown User', user: { id: newcomer, displayName: 'Unknown User', username: '', avatar: null } });
      await h.register(newcomer, 'nova', 'Nova Newcomer');
      const [row] = await h.query<{ user_name: string }>('SELECT user_name FROM timeline_comments WHERE id = $1', [res.body.id]);
      expect(row!.user_name).toBe('Nova Newcomer');
      const list = await h.call('get', comments(w.publicTimeline)).expect(200);
      expect(list.body.find((c: { id: string }) => c.id === res.body.id)).toMatchObject({ userName: 'Nova Newcomer', user: { username: 'nova' } });
    });

    it('a profile change reaches existing comments; an event delivered twice applies once', async () => {
      const person = randomUUID();
      await h.register(person, 'pat', 'Pat');
      const res = await post(w.publicTimeline, person, { content: 'hello' }).expect(201);
      const eventId = await h.publish(AuthEvents.UserUpdated, { userId: person, displayName: 'Patricia', avatar: '/media/pat.png' });
      await waitFor(async () => (await h.query<{ user_name: string }>('SELECT user_name FROM timeline_comments WHERE id = $1', [res.body.id]))[0]!.user_name === 'Patricia');
      const list = await h.call('get', `${comments(w.publicTimeline)}?limit=100`).expect(200);
      expect(list.body.find((c: { id: string }) => c.id === res.body.id)).toMatchObject({ userName: 'Patricia', user: { displayName: 'Patricia', username: 'pat', avatar: '/media/pat.png' } });

      // The same event again (a redelivery): the inbox has it, nothing changes.
      await h.query(`UPDATE users SET display_name = 'Changed meanwhile' WHERE id = $1`, [person]);
      await h.publish(AuthEvents.UserUpdated, { userId: person, displayName: 'Patricia' }, eventId);
      // A later update on the same subject (of someone known: one of someone unknown waits for their registration).
      const other = randomUUID();
      await h.register(other, 'marker', 'Marker');
      const marker = await h.publish(AuthEvents.UserUpdated, { userId: other, displayName: 'Marked' });
      await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [marker])).length === 1);
      const [user] = await h.query<{ display_name: string }>('SELECT display_name FROM users WHERE id = $1', [person]);
      expect(user!.display_name).toBe('Changed meanwhile');
    });

    it("a deleted timeline's comments go with it", async () => {
      const timeline = randomUUID();
      h.override(timeline, true);
      await post(timeline, w.collaborator, { content: 'soon gone' }).expect(201);
      await h.publish(TimelinesEvents.TimelineDeleted, { timelineId: timeline, creatorId: w.owner });
      await waitFor(async () => (await count(`SELECT count(*) AS n FROM timeline_comments WHERE timeline_id = '${timeline}'`)) === 0);
    });
  });
});
