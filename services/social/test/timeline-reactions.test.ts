import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { Reaction, ReactionChangedSchema, TargetType, TimelinesEvents } from '@timeliner/proto';
import { type SocialHarness, startHarness, waitFor, type World } from './harness.js';

describe('timeline likes and bookmarks', () => {
  let h: SocialHarness;
  let w: World;
  beforeAll(async () => {
    h = await startHarness('socialreactions');
    w = h.world;
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.setTimelines('answer');
  });

  /** A timeline everyone may see, fresh for each test. */
  const openTimeline = () => {
    const id = randomUUID();
    h.override(id, true);
    return id;
  };
  const like = (id: string) => `/api/timelines/${id}/like`;
  const liked = (id: string) => `/api/timelines/${id}/liked`;
  const bookmark = (id: string) => `/api/timelines/${id}/bookmark`;
  const bookmarked = (id: string) => `/api/timelines/${id}/bookmarked`;
  const events = async (timelineId: string) =>
    (await h.query<{ payload: Buffer; actor_user_id: string }>(`SELECT payload, actor_user_id FROM outbox WHERE type = 'social.reaction.changed' ORDER BY position`))
      .map((row) => ({ ...fromBinary(ReactionChangedSchema, row.payload), actor: row.actor_user_id }))
      .filter((e) => e.targetId === timelineId);
  const counts = async (timelineId: string) =>
    (await h.query<{ likes: number; bookmarks: number; likes_count: number | null; bookmarks_count: number | null }>(
      `SELECT (SELECT count(*)::int FROM timeline_likes WHERE timeline_id = $1) AS likes,
              (SELECT count(*)::int FROM timeline_bookmarks WHERE timeline_id = $1) AS bookmarks,
              (SELECT likes_count FROM timeline_reactions WHERE timeline_id = $1) AS likes_count,
              (SELECT bookmarks_count FROM timeline_reactions WHERE timeline_id = $1) AS bookmarks_count`,
      [timelineId],
    ))[0]!;

  describe('answer shapes', () => {
    it('reads {isLiked, liked, likesCount} and {isBookmarked, bookmarked}, false for anonymous callers', async () => {
      const id = openTimeline();
      expect((await h.call('get', liked(id)).expect(200)).body).toEqual({ isLiked: false, liked: false, likesCount: 0 });
      expect((await h.call('get', bookmarked(id)).expect(200)).body).toEqual({ isBookmarked: false, bookmarked: false });
      expect((await h.call('post', like(id), { userId: w.stranger }).expect(200)).body).toEqual({ isLiked: true, liked: true, likesCount: 1 });
      expect((await h.call('post', bookmark(id), { userId: w.stranger }).expect(200)).body).toEqual({ isBookmarked: true, bookmarked: true });
      expect((await h.call('get', liked(id), { userId: w.stranger }).expect(200)).body).toEqual({ isLiked: true, liked: true, likesCount: 1 });
      expect((await h.call('get', bookmarked(id), { userId: w.stranger }).expect(200)).body).toEqual({ isBookmarked: true, bookmarked: true });
      expect((await h.call('get', liked(id)).expect(200)).body).toEqual({ isLiked: false, liked: false, likesCount: 1 });
      expect((await h.call('get', liked(id), { userId: w.collaborator }).expect(200)).body).toEqual({ isLiked: false, liked: false, likesCount: 1 });
      expect((await h.call('delete', like(id), { userId: w.stranger }).expect(200)).body).toEqual({ isLiked: false, liked: false, likesCount: 0 });
      expect((await h.call('delete', bookmark(id), { userId: w.stranger }).expect(200)).body).toEqual({ isBookmarked: false, bookmarked: false });
    });

    it('takes an upper-case id as the same timeline', async () => {
      const id = openTimeline();
      await h.call('post', like(id.toUpperCase()), { userId: w.stranger }).expect(200);
      expect((await h.call('get', liked(id), { userId: w.stranger }).expect(200)).body).toMatchObject({ isLiked: true, likesCount: 1 });
      expect(await counts(id)).toMatchObject({ likes: 1, likes_count: 1 });
    });
  });

  describe('who may', () => {
    it('hides a timeline the caller may not see: 404 Timeline not found, reading or writing, nothing stored', async () => {
      for (const [method, path] of [['get', liked], ['post', like], ['delete', like], ['get', bookmarked], ['post', bookmark], ['delete', bookmark]] as const) {
        const res = await h.call(method, path(w.privateTimeline), { userId: w.stranger }).expect(404);
        expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Timeline not found' });
        await h.call(method, path(w.missingTimeline), { userId: w.collaborator }).expect(404);
        await h.call(method, path('not-a-uuid'), { userId: w.collaborator }).expect(404);
      }
      expect(await counts(w.privateTimeline)).toEqual({ likes: 0, bookmarks: 0, likes_count: null, bookmarks_count: null });
    });

    it('asks anonymous writers to sign in first (401), even for a timeline they may not see', async () => {
      for (const path of [like, bookmark]) {
        for (const method of ['post', 'delete'] as const) {
          for (const id of [w.publicTimeline, w.privateTimeline, 'not-a-uuid']) {
            const res = await h.call(method, path(id)).expect(401);
            expect(res.body.message).toBe('Authentication required');
          }
        }
      }
    });

    it('lets a collaborator react to a private timeline', async () => {
      expect((await h.call('post', like(w.privateTimeline), { userId: w.collaborator }).expect(200)).body).toEqual({ isLiked: true, liked: true, likesCount: 1 });
      await h.call('delete', like(w.privateTimeline), { userId: w.collaborator }).expect(200);
    });

    it('answers 503 when the timelines service does not, and changes nothing', async () => {
      const id = openTimeline();
      h.setTimelines('fail');
      await h.call('post', like(id), { userId: w.stranger }).expect(503);
      expect(await counts(id)).toMatchObject({ likes: 0, likes_count: null });
    });
  });

  describe('toggles', () => {
    it('is idempotent: a repeated like or unlike changes nothing and announces nothing', async () => {
      const id = openTimeline();
      for (let i = 0; i < 3; i++) expect((await h.call('post', like(id), { userId: w.stranger }).expect(200)).body.likesCount).toBe(1);
      expect(await counts(id)).toMatchObject({ likes: 1, likes_count: 1 });
      expect(await events(id)).toHaveLength(1);
      for (let i = 0; i < 3; i++) expect((await h.call('delete', like(id), { userId: w.stranger }).expect(200)).body.likesCount).toBe(0);
      expect(await counts(id)).toMatchObject({ likes: 0, likes_count: 0 });
      expect(await events(id)).toHaveLength(2);
      // Never liked: nothing to take back.
      await h.call('delete', like(id), { userId: w.collaborator }).expect(200);
      expect(await events(id)).toHaveLength(2);
    });

    it('announces each real change with the absolute count and a growing version', async () => {
      const id = openTimeline();
      const [a, b] = [randomUUID(), randomUUID()];
      await h.call('post', like(id), { userId: a }).expect(200);
      await h.call('post', like(id), { userId: b }).expect(200);
      await h.call('post', bookmark(id), { userId: a }).expect(200);
      await h.call('delete', like(id), { userId: a }).expect(200);
      const sent = await events(id);
      expect(sent.map((e) => [e.reaction, e.active, Number(e.count), e.userId, e.actor])).toEqual([
        [Reaction.LIKE, true, 1, a, a],
        [Reaction.LIKE, true, 2, b, b],
        [Reaction.BOOKMARK, true, 1, a, a],
        [Reaction.LIKE, false, 1, a, a],
      ]);
      for (const e of sent) expect(e).toMatchObject({ targetType: TargetType.TIMELINE, targetId: id, timelineId: id, ownerId: w.owner });
      const versions = sent.map((e) => e.countVersion);
      expect([...versions].sort((x, y) => (x < y ? -1 : 1))).toEqual(versions);
      expect(new Set(versions).size).toBe(versions.length);
      expect(sent.every((e) => e.at !== undefined)).toBe(true);
    });

    it('stays exact under 50 concurrent like/unlike pairs: count equals rows, and the events replay to it', async () => {
      const id = openTimeline();
      const people = Array.from({ length: 50 }, () => randomUUID());
      await Promise.all(people.flatMap((userId) => [
        h.call('post', like(id), { userId }).then((r) => expect(r.status).toBe(200)),
        h.call('delete', like(id), { userId }).then((r) => expect(r.status).toBe(200)),
      ]));
      // And one person's 20 simultaneous likes are one like.
      const eager = randomUUID();
      await Promise.all(Array.from({ length: 20 }, () => h.call('post', like(id), { userId: eager }).expect(200)));
      const after = await counts(id);
      expect(after.likes_count).toBe(after.likes);
      expect((await h.call('get', liked(id)).expect(200)).body.likesCount).toBe(after.likes);
      // In version order each event moves the count by one in its direction and the last is the count.
      const sent = (await events(id)).sort((x, y) => (x.countVersion < y.countVersion ? -1 : 1));
      expect(sent.filter((e) => e.userId === eager)).toHaveLength(1);
      let count = 0;
      for (const e of sent) {
        count += e.active ? 1 : -1;
        expect(Number(e.count)).toBe(count);
      }
      expect(count).toBe(after.likes);
    });
  });

  it('forgets a deleted timeline\'s likes and bookmarks', async () => {
    const id = openTimeline();
    await h.call('post', like(id), { userId: w.stranger }).expect(200);
    await h.call('post', bookmark(id), { userId: w.stranger }).expect(200);
    const eventId = await h.publish(TimelinesEvents.TimelineDeleted, { timelineId: id });
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1);
    expect(await counts(id)).toEqual({ likes: 0, bookmarks: 0, likes_count: null, bookmarks_count: null });
  });
});
