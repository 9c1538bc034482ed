import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AuthEvents, RevocationReason, TimelinesEvents, type TimelineSnapshot, type TimelineSnapshotSchema, TimelineStatus, Visibility } from '@timeliner/proto';
import { recordActivity } from '../src/activity/activity-recorder.js';
import { type As, type SocialHarness, startHarness, waitFor } from './harness.js';

/**
 * A person's activity (recorded from the events this service writes and sees), their Timelines
 * tab, and private accounts, against a real Postgres.
 */
describe('activity and a person\'s timelines', () => {
  let h: SocialHarness;
  let owner: string;
  let stranger: string;
  let collaborator: string;
  beforeAll(async () => {
    h = await startHarness('socialactivity');
    ({ owner, stranger, collaborator } = h.world);
    await h.register(owner, 'olga', 'Olga Owner');
    await h.register(stranger, 'sam', 'Sam Stranger');
    await h.register(collaborator, 'cleo', 'Cleo Collaborator');
    await snapshot(h.world.publicTimeline, 1, { title: 'Public trip' });
    await snapshot(h.world.privateTimeline, 1, { title: 'Secret plans', visibility: Visibility.PRIVATE });
  });
  afterAll(async () => {
    await h.close();
  });

  const base = Date.parse('2026-03-01T10:00:00.000000Z');
  let minute = 0;
  type Snapshot = MessageInitShape<typeof TimelineSnapshotSchema>;
  type Changes = Partial<Omit<TimelineSnapshot, '$typeName' | '$unknown'>>;
  const snapshotOf = (timelineId: string, revision: number, changes: Changes = {}): Snapshot => ({
    timelineId,
    creatorId: owner,
    creatorName: 'Olga Owner',
    title: `Timeline ${timelineId.slice(0, 8)}`,
    description: '',
    visibility: Visibility.PUBLIC,
    status: TimelineStatus.PUBLISHED,
    videoCount: 1,
    duration: 10,
    views: 0n,
    likesCount: 0,
    commentsCount: 0,
    activityScore: 1,
    lastActivityAt: timestampFromDate(new Date(base)),
    // Each new timeline a minute later than the last: newest first is a known order.
    createdAt: timestampFromDate(new Date(base + ++minute * 60_000)),
    updatedAt: timestampFromDate(new Date(base)),
    coverMediaId: '',
    revision: BigInt(revision),
    ...changes,
  });
  const applied = async (eventId: string) => waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1);
  async function snapshot(timelineId: string, revision: number, changes: Changes = {}, eventId?: string): Promise<string> {
    const id = await h.publish(TimelinesEvents.TimelineSnapshot, snapshotOf(timelineId, revision, changes), eventId);
    await applied(id);
    return id;
  }
  const activity = (userId: string, as: As = {}, query = '') => h.call('get', `/api/users/${userId}/activity${query}`, as);
  const timelines = (userId: string, as: As = {}, query = '') => h.call('get', `/api/users/${userId}/timelines${query}`, as);
  const kinds = (body: Array<{ activityType: string; targetId: string }>) => body.map((a) => `${a.activityType} ${a.targetId}`);
  const rows = (userId: string, type: string, targetId: string) =>
    h.query<{ n: number }>('SELECT count(*)::int AS n FROM activities WHERE user_id = $1 AND activity_type = $2 AND target_id = $3', [userId, type, targetId]).then((r) => r[0]!.n);

  let n = 0;
  const person = async () => {
    const id = randomUUID();
    n += 1;
    await h.register(id, `pat_${n}`, `Pat ${n}`);
    return id;
  };

  describe('created_timeline', () => {
    it("is recorded once, from the timeline's first snapshot, with its title and creation time", async () => {
      const creator = await person();
      const id = randomUUID();
      const first = await snapshot(id, 1, { creatorId: creator, title: 'First cut', status: TimelineStatus.DRAFT, visibility: Visibility.PRIVATE });
      // Redelivered (same event id), overtaken, and later snapshots: nothing more.
      const draft = { creatorId: creator, status: TimelineStatus.DRAFT };
      await h.publish(TimelinesEvents.TimelineSnapshot, snapshotOf(id, 1, draft), first);
      await snapshot(id, 1, draft);
      await snapshot(id, 2, { ...draft, title: 'Final cut', visibility: Visibility.PRIVATE });
      await snapshot(id, 3, { ...draft, title: 'Final cut' });
      expect(await rows(creator, 'created_timeline', id)).toBe(1);

      const mine = await activity(creator, { userId: creator }).expect(200);
      expect(mine.body).toEqual([{
        id: expect.any(String), userId: creator, activityType: 'created_timeline', targetType: 'timeline', targetId: id,
        // The title as the read model knows it now.
        metadata: { timelineTitle: 'Final cut' }, createdAt: expect.stringMatching(/^2026-03-01T10:/),
      }]);
      // Still a draft: nobody else sees it; once published, everyone does.
      expect((await activity(creator, { userId: stranger }).expect(200)).body).toEqual([]);
      await snapshot(id, 4, { creatorId: creator, title: 'Final cut' });
      expect(kinds((await activity(creator).expect(200)).body)).toEqual([`created_timeline ${id}`]);
    });

    it('records nothing twice for one source event, whatever path it comes by', async () => {
      const ds = h.service.app.get(DataSource);
      const user = await person();
      const eventId = randomUUID();
      for (let i = 0; i < 2; i++) {
        await ds.transaction((manager) => recordActivity(manager, { sourceEventId: eventId, userId: user, activityType: 'liked_timeline', targetType: 'timeline', targetId: h.world.publicTimeline }));
      }
      expect(await rows(user, 'liked_timeline', h.world.publicTimeline)).toBe(1);
    });
  });

  describe('likes, bookmarks, comments and follows', () => {
    it('a like and a bookmark are recorded once; taking them back removes them', async () => {
      const timeline = h.world.publicTimeline;
      const as = { userId: stranger };
      await h.call('post', `/api/timelines/${timeline}/like`, as).expect(200);
      await h.call('post', `/api/timelines/${timeline}/like`, as).expect(200);
      await h.call('post', `/api/timelines/${timeline}/bookmark`, as).expect(200);
      expect(await rows(stranger, 'liked_timeline', timeline)).toBe(1);
      const page = (await activity(stranger, { userId: collaborator }).expect(200)).body as Array<{ activityType: string; metadata: unknown }>;
      expect(page.map((a) => [a.activityType, a.metadata])).toEqual([
        ['bookmarked_timeline', { timelineTitle: 'Public trip' }],
        ['liked_timeline', { timelineTitle: 'Public trip' }],
      ]);

      await h.call('delete', `/api/timelines/${timeline}/like`, as).expect(200);
      await h.call('delete', `/api/timelines/${timeline}/like`, as).expect(200);
      expect(kinds((await activity(stranger, as).expect(200)).body)).toEqual([`bookmarked_timeline ${timeline}`]);
      await h.call('delete', `/api/timelines/${timeline}/bookmark`, as).expect(200);
      expect((await activity(stranger, as).expect(200)).body).toEqual([]);
    });

    it('a comment on a timeline is recorded, one per comment', async () => {
      const user = await person();
      for (const content of ['Lovely', 'Again']) await h.call('post', `/api/timelines/${h.world.publicTimeline}/comments`, { userId: user }).send({ content }).expect(201);
      const page = (await activity(user).expect(200)).body as Array<{ activityType: string; targetType: string; targetId: string; metadata: unknown }>;
      expect(page).toHaveLength(2);
      expect(page.every((a) => a.activityType === 'commented_timeline' && a.targetType === 'timeline' && a.targetId === h.world.publicTimeline)).toBe(true);
      expect(page[0]!.metadata).toEqual({ timelineTitle: 'Public trip' });
    });

    it('a follow is recorded with the username; an unfollow removes it', async () => {
      const [fan, star] = [await person(), await person()];
      await h.call('post', `/api/users/${star}/follow`, { userId: fan }).expect(200);
      await h.call('post', `/api/users/${star}/follow`, { userId: fan }).expect(200);
      const page = (await activity(fan).expect(200)).body as Array<{ activityType: string; targetType: string; targetId: string; metadata: unknown }>;
      expect(page).toEqual([expect.objectContaining({ activityType: 'followed_user', targetType: 'user', targetId: star, metadata: { followedUsername: `pat_${n}` } })]);
      await h.call('delete', `/api/users/${star}/follow`, { userId: fan }).expect(200);
      expect((await activity(fan).expect(200)).body).toEqual([]);
    });
  });

  describe('what others may see', () => {
    it('a like of a private timeline is in nobody else\'s activity; the person sees it', async () => {
      await h.call('post', `/api/timelines/${h.world.privateTimeline}/like`, { userId: collaborator }).expect(200);
      await h.call('post', `/api/timelines/${h.world.publicTimeline}/like`, { userId: collaborator }).expect(200);
      expect(kinds((await activity(collaborator, { userId: collaborator }).expect(200)).body)).toEqual([
        `liked_timeline ${h.world.publicTimeline}`, `liked_timeline ${h.world.privateTimeline}`,
      ]);
      for (const as of [{}, { userId: stranger }, { userId: owner }]) {
        expect(kinds((await activity(collaborator, as).expect(200)).body)).toEqual([`liked_timeline ${h.world.publicTimeline}`]);
      }
    });

    it('a deleted timeline takes every activity about it along', async () => {
      const id = randomUUID();
      const fan = await person();
      await snapshot(id, 1, { creatorId: fan });
      expect(await rows(fan, 'created_timeline', id)).toBe(1);
      const deleted = await h.publish(TimelinesEvents.TimelineDeleted, { timelineId: id, creatorId: fan });
      await applied(deleted);
      expect(await h.query('SELECT 1 FROM activities WHERE target_id = $1', [id])).toEqual([]);
      expect((await activity(fan, { userId: fan }).expect(200)).body).toEqual([]);
    });

    it("a person's Timelines tab: all of their own to them, the public published ones to others, newest first, paged", async () => {
      const creator = await person();
      const ids = { published: randomUUID(), draft: randomUUID(), private: randomUUID(), unlisted: randomUUID(), older: randomUUID() };
      await snapshot(ids.older, 1, { creatorId: creator, title: 'Older' });
      await snapshot(ids.published, 1, { creatorId: creator, title: 'Published' });
      await snapshot(ids.draft, 1, { creatorId: creator, status: TimelineStatus.DRAFT });
      await snapshot(ids.private, 1, { creatorId: creator, visibility: Visibility.PRIVATE });
      await snapshot(ids.unlisted, 1, { creatorId: creator, visibility: Visibility.UNLISTED });
      await snapshot(randomUUID(), 1, { creatorId: stranger });

      const own = (await timelines(creator, { userId: creator }).expect(200)).body as Array<{ id: string; visibility: string; status: string }>;
      expect(own.map((t) => t.id)).toEqual([ids.unlisted, ids.private, ids.draft, ids.published, ids.older]);
      expect(own.find((t) => t.id === ids.draft)).toMatchObject({ visibility: 'public', status: 'draft' });
      for (const as of [{}, { userId: stranger }]) {
        const res = await timelines(creator, as, '?limit=1').expect(200);
        expect(res.body).toEqual([expect.objectContaining({ id: ids.published, title: 'Published', creatorId: creator, creatorName: `Pat ${n}`, isLiked: false, visibility: 'public', status: 'published' })]);
        const next = await timelines(creator, as, `?limit=1&cursor=${res.headers['x-next-cursor']}`).expect(200);
        expect(next.body.map((t: { id: string }) => t.id)).toEqual([ids.older]);
        expect(next.headers['x-next-cursor']).toBeUndefined();
      }
    });

    it('pages activity newest first without repeats', async () => {
      const user = await person();
      const followed: string[] = [];
      for (let i = 0; i < 5; i++) {
        const other = await person();
        followed.push(other);
        await h.call('post', `/api/users/${other}/follow`, { userId: user }).expect(200);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await activity(user, {}, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
        seen.push(...res.body.map((a: { targetId: string }) => a.targetId));
        cursor = res.headers['x-next-cursor'];
      } while (cursor);
      expect(seen).toEqual([...followed].reverse());
    });
  });

  describe('private accounts', () => {
    it('show activity, followers and following to themselves and their followers only', async () => {
      const [hidden, follower, other, followed] = [await person(), await person(), await person(), await person()];
      await h.call('post', `/api/users/${hidden}/follow`, { userId: follower }).expect(200);
      await h.call('post', `/api/users/${followed}/follow`, { userId: hidden }).expect(200);
      // The profile edit's UserUpdated carries the flag to this read model.
      await applied(await h.publish(AuthEvents.UserUpdated, { userId: hidden, isPrivate: true }));

      for (const path of ['activity', 'followers', 'following-list', 'timelines']) {
        for (const as of [{}, { userId: other }]) {
          const res = await h.call('get', `/api/users/${hidden}/${path}`, as);
          expect([path, res.status, res.body.message]).toEqual([path, 403, 'This account is private']);
        }
        for (const as of [{ userId: hidden }, { userId: follower }]) await h.call('get', `/api/users/${hidden}/${path}`, as).expect(200);
      }
      expect(kinds((await activity(hidden, { userId: follower }).expect(200)).body)).toEqual([`followed_user ${followed}`]);
      // Not part of the rule: the follow state and counts. The timelines are, whatever their own visibility.
      await h.call('get', `/api/users/${hidden}/following`, { userId: other }).expect(200);
      // Unknown people stay 404.
      expect((await activity(randomUUID(), { userId: other }).expect(404)).body.message).toBe('User not found');

      // An update that does not name the flag leaves it as it is.
      await applied(await h.publish(AuthEvents.UserUpdated, { userId: hidden, bio: 'Back in public soon' }));
      await activity(hidden).expect(403);
      await applied(await h.publish(AuthEvents.UserUpdated, { userId: hidden, isPrivate: false }));
      await activity(hidden).expect(200);
    });
  });

  it('a deleted account takes its activity along, and the follows of it', async () => {
    const [gone, fan] = [await person(), await person()];
    await h.call('post', `/api/users/${gone}/follow`, { userId: fan }).expect(200);
    await h.call('post', `/api/timelines/${h.world.publicTimeline}/like`, { userId: gone }).expect(200);
    expect(await h.query('SELECT 1 FROM activities WHERE user_id = ANY($1::uuid[])', [[gone, fan]])).toHaveLength(2);
    const eventId = await h.publish(AuthEvents.SessionRevoked, { sessionId: randomUUID(), userId: gone, tokenHash: 'c'.repeat(64), reason: RevocationReason.ACCOUNT_DELETED });
    await applied(eventId);
    expect(await h.query('SELECT 1 FROM activities WHERE user_id = ANY($1::uuid[])', [[gone, fan]])).toEqual([]);
  });
});
