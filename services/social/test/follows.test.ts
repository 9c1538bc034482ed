import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { AuthEvents, FollowChangedSchema, RevocationReason } from '@timeliner/proto';
import { type SocialHarness, startHarness, waitFor } from './harness.js';

describe('follows', () => {
  let h: SocialHarness;
  beforeAll(async () => {
    h = await startHarness('socialfollows');
  });
  afterAll(async () => {
    await h.close();
  });

  let n = 0;
  /** A person the users read model knows. */
  const person = async (displayName = 'Pat Person') => {
    n += 1;
    const id = randomUUID();
    await h.register(id, `person_${n}`, displayName);
    return id;
  };
  const follow = (id: string) => `/api/users/${id}/follow`;
  const following = (id: string) => `/api/users/${id}/following`;
  const followers = (id: string) => `/api/users/${id}/followers`;
  const followingList = (id: string) => `/api/users/${id}/following-list`;

  const events = async (userId?: string) =>
    (await h.query<{ payload: Buffer; actor_user_id: string | null }>(`SELECT payload, actor_user_id FROM outbox WHERE type = 'social.follow.changed' ORDER BY position`))
      .map((row) => ({ ...fromBinary(FollowChangedSchema, row.payload), actor: row.actor_user_id }))
      .filter((e) => userId === undefined || e.followerId === userId || e.followeeId === userId);
  /** Stored counts and the rows they count. */
  const counts = async (userId: string) =>
    (await h.query<{ followers: number; following: number; followers_count: number | null; following_count: number | null }>(
      `SELECT (SELECT count(*)::int FROM follows WHERE following_id = $1) AS followers,
              (SELECT count(*)::int FROM follows WHERE follower_id = $1) AS following,
              (SELECT followers_count FROM follow_counts WHERE user_id = $1) AS followers_count,
              (SELECT following_count FROM follow_counts WHERE user_id = $1) AS following_count`,
      [userId],
    ))[0]!;

  describe('answer shapes', () => {
    it('follows and unfollows with {isFollowing, followersCount, followingCount} of the person followed', async () => {
      const [ada, bob, cy] = [await person(), await person(), await person()];
      expect((await h.call('get', following(bob)).expect(200)).body).toEqual({ isFollowing: false, isRequested: false, followersCount: 0, followingCount: 0 });
      expect((await h.call('post', follow(bob), { userId: ada }).expect(200)).body).toEqual({ isFollowing: true, isRequested: false, followersCount: 1, followingCount: 0 });
      await h.call('post', follow(cy), { userId: bob }).expect(200);
      expect((await h.call('post', follow(bob), { userId: cy }).expect(200)).body).toEqual({ isFollowing: true, isRequested: false, followersCount: 2, followingCount: 1 });
      expect((await h.call('get', following(bob), { userId: ada }).expect(200)).body).toEqual({ isFollowing: true, isRequested: false, followersCount: 2, followingCount: 1 });
      expect((await h.call('get', following(bob)).expect(200)).body).toEqual({ isFollowing: false, isRequested: false, followersCount: 2, followingCount: 1 });
      expect((await h.call('get', following(ada), { userId: bob }).expect(200)).body).toEqual({ isFollowing: false, isRequested: false, followersCount: 0, followingCount: 1 });
      expect((await h.call('delete', follow(bob), { userId: ada }).expect(200)).body).toEqual({ isFollowing: false, isRequested: false, followersCount: 1, followingCount: 1 });
      expect((await h.call('get', following(bob), { userId: ada }).expect(200)).body).toEqual({ isFollowing: false, isRequested: false, followersCount: 1, followingCount: 1 });
      expect(await counts(ada)).toEqual({ followers: 0, following: 0, followers_count: 0, following_count: 0 });
      expect(await counts(bob)).toEqual({ followers: 1, following: 1, followers_count: 1, following_count: 1 });
    });

    it('takes an upper-case id as the same person', async () => {
      const [ada, bob] = [await person(), await person()];
      await h.call('post', follow(bob.toUpperCase()), { userId: ada }).expect(200);
      expect((await h.call('get', following(bob), { userId: ada }).expect(200)).body).toMatchObject({ isFollowing: true, isRequested: false, followersCount: 1 });
      expect((await h.call('get', following(bob.toUpperCase()), { userId: ada }).expect(200)).body).toMatchObject({ isFollowing: true, isRequested: false, followersCount: 1 });
      await h.call('post', follow(bob.toUpperCase()), { userId: ada.toUpperCase() }).expect(200);
      await h.call('post', follow(ada.toUpperCase()), { userId: ada }).expect(400);
      expect(await counts(bob)).toMatchObject({ followers: 1, followers_count: 1 });
    });
  });

  describe('who may', () => {
    it('asks anonymous callers to sign in (401) before anything else', async () => {
      const bob = await person();
      for (const method of ['post', 'delete'] as const) {
        for (const id of [bob, randomUUID(), 'not-a-uuid']) {
          const res = await h.call(method, follow(id)).expect(401);
          expect(res.body.message).toBe('Authentication required');
        }
      }
      expect(await counts(bob)).toEqual({ followers: 0, following: 0, followers_count: null, following_count: null });
    });

    it('refuses following oneself: 400 You cannot follow yourself, nothing stored', async () => {
      const ada = await person();
      for (const method of ['post', 'delete'] as const) {
        const res = await h.call(method, follow(ada), { userId: ada }).expect(400);
        expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'You cannot follow yourself' });
      }
      expect(await counts(ada)).toEqual({ followers: 0, following: 0, followers_count: null, following_count: null });
      expect(await events(ada)).toHaveLength(0);
    });

    it('answers 404 User not found for someone unknown or a malformed id, on every route', async () => {
      const ada = await person();
      const unknown = randomUUID();
      const cases = [
        ['post', follow], ['delete', follow], ['get', following], ['get', followers], ['get', followingList],
      ] as const;
      for (const [method, path] of cases) {
        for (const id of [unknown, 'not-a-uuid', `${unknown}x`]) {
          const res = await h.call(method, path(id), { userId: ada }).expect(404);
          expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'User not found' });
        }
        if (method === 'get') await h.call(method, path(unknown)).expect(404);
      }
      expect(await counts(unknown)).toEqual({ followers: 0, following: 0, followers_count: null, following_count: null });
      expect(await counts(ada)).toMatchObject({ followers_count: null, following_count: null });
    });

    it('lets someone the read model has not heard of yet follow (their name shows as Unknown User)', async () => {
      const bob = await person();
      const newcomer = randomUUID();
      await h.call('post', follow(bob), { userId: newcomer }).expect(200);
      const list = (await h.call('get', followers(bob)).expect(200)).body;
      expect(list).toEqual([{ id: newcomer, username: '', displayName: 'Unknown User', avatar: null, isFollowing: false, followedAt: expect.any(String) }]);
    });
  });

  describe('toggles', () => {
    it('is idempotent: a repeated follow or unfollow changes nothing and announces nothing', async () => {
      const [ada, bob, cy] = [await person(), await person(), await person()];
      for (let i = 0; i < 3; i++) expect((await h.call('post', follow(bob), { userId: ada }).expect(200)).body).toEqual({ isFollowing: true, isRequested: false, followersCount: 1, followingCount: 0 });
      expect(await counts(bob)).toMatchObject({ followers: 1, followers_count: 1 });
      expect(await events(bob)).toHaveLength(1);
      for (let i = 0; i < 3; i++) expect((await h.call('delete', follow(bob), { userId: ada }).expect(200)).body).toEqual({ isFollowing: false, isRequested: false, followersCount: 0, followingCount: 0 });
      expect(await counts(bob)).toMatchObject({ followers: 0, followers_count: 0 });
      expect(await events(bob)).toHaveLength(2);
      // Never followed: nothing to take back.
      expect((await h.call('delete', follow(bob), { userId: cy }).expect(200)).body).toEqual({ isFollowing: false, isRequested: false, followersCount: 0, followingCount: 0 });
      expect(await events(bob)).toHaveLength(2);
    });

    it('announces each real change with both absolute counts and growing versions', async () => {
      const [ada, bob, cy] = [await person(), await person(), await person()];
      await h.call('post', follow(bob), { userId: ada }).expect(200);
      await h.call('post', follow(cy), { userId: ada }).expect(200);
      await h.call('post', follow(bob), { userId: cy }).expect(200);
      await h.call('delete', follow(bob), { userId: ada }).expect(200);
      const sent = await events(ada).then(async (mine) => [...mine, ...(await events(cy)).filter((e) => e.followerId === cy)]);
      expect(sent.map((e) => [e.followerId, e.followeeId, e.active, Number(e.followersCount), Number(e.followingCount), e.actor])).toEqual([
        [ada, bob, true, 1, 1, ada],
        [ada, cy, true, 1, 2, ada],
        [ada, bob, false, 1, 1, ada],
        [cy, bob, true, 2, 1, cy],
      ]);
      const all = await events();
      const versions = all.flatMap((e) => [e.followersVersion, e.followingVersion]);
      expect(new Set(versions).size).toBe(versions.length);
      // Per person, the versions grow in the order the changes were made.
      const bobVersions = (await events(bob)).map((e) => e.followersVersion);
      expect([...bobVersions].sort((x, y) => (x < y ? -1 : 1))).toEqual(bobVersions);
      expect(sent.every((e) => e.at !== undefined)).toBe(true);
    });

    it('stays exact under 30 concurrent follow/unfollow pairs: counts equal rows, and the events replay to them', async () => {
      const star = await person('Star');
      const fans = Array.from({ length: 30 }, () => randomUUID());
      // Crossing traffic too: the star follows some fans back while they toggle (locks taken in id order).
      const known = await Promise.all(Array.from({ length: 10 }, () => person()));
      await Promise.all([
        ...fans.flatMap((userId) => [
          h.call('post', follow(star), { userId }).then((r) => expect(r.status).toBe(200)),
          h.call('delete', follow(star), { userId }).then((r) => expect(r.status).toBe(200)),
        ]),
        ...known.flatMap((userId) => [
          h.call('post', follow(star), { userId }).then((r) => expect(r.status).toBe(200)),
          h.call('post', follow(userId), { userId: star }).then((r) => expect(r.status).toBe(200)),
        ]),
      ]);
      // And one person's 20 simultaneous follows are one follow.
      const eager = randomUUID();
      await Promise.all(Array.from({ length: 20 }, () => h.call('post', follow(star), { userId: eager }).expect(200)));

      const after = await counts(star);
      expect(after.followers_count).toBe(after.followers);
      expect(after.following_count).toBe(after.following);
      expect(after.following).toBe(10);
      for (const userId of known) expect(await counts(userId)).toMatchObject({ followers: 1, followers_count: 1, following: 1, following_count: 1 });
      expect((await h.call('get', following(star)).expect(200)).body).toEqual({ isFollowing: false, isRequested: false, followersCount: after.followers, followingCount: 10 });

      // In version order each event moves the star's follower count by one in its direction, and the last is the count.
      const toStar = (await events(star)).filter((e) => e.followeeId === star).sort((x, y) => (x.followersVersion < y.followersVersion ? -1 : 1));
      expect(toStar.filter((e) => e.followerId === eager)).toHaveLength(1);
      let count = 0;
      for (const e of toStar) {
        count += e.active ? 1 : -1;
        expect(Number(e.followersCount)).toBe(count);
      }
      expect(count).toBe(after.followers);
    });
  });

  describe('lists', () => {
    it('lists followers and following newest first, with whether the caller follows each', async () => {
      const star = await person('Star');
      const [ada, bob, cy] = [await person('Ada A'), await person('Bob B'), await person('Cy C')];
      await h.call('post', follow(star), { userId: ada }).expect(200);
      await h.call('post', follow(star), { userId: bob }).expect(200);
      await h.call('post', follow(star), { userId: cy }).expect(200);
      await h.call('post', follow(bob), { userId: ada }).expect(200);
      await h.call('post', follow(ada), { userId: star }).expect(200);
      await h.call('post', follow(cy), { userId: star }).expect(200);

      const list = (await h.call('get', followers(star), { userId: ada }).expect(200)).body as Array<Record<string, unknown>>;
      expect(list.map((p) => [p.id, p.displayName, p.isFollowing])).toEqual([[cy, 'Cy C', false], [bob, 'Bob B', true], [ada, 'Ada A', false]]);
      expect(list[0]).toEqual({ id: cy, username: expect.stringMatching(/^person_/), displayName: 'Cy C', avatar: null, isFollowing: false, followedAt: expect.any(String) });
      const times = list.map((p) => Date.parse(p.followedAt as string));
      expect([...times].sort((x, y) => y - x)).toEqual(times);

      const anonymous = (await h.call('get', followers(star)).expect(200)).body as Array<Record<string, unknown>>;
      expect(anonymous.map((p) => p.isFollowing)).toEqual([false, false, false]);

      const theirs = (await h.call('get', followingList(star), { userId: ada }).expect(200)).body as Array<Record<string, unknown>>;
      expect(theirs.map((p) => [p.id, p.isFollowing])).toEqual([[cy, false], [ada, false]]);
      const bobSees = (await h.call('get', followingList(star), { userId: bob }).expect(200)).body as Array<Record<string, unknown>>;
      expect(bobSees.map((p) => p.isFollowing)).toEqual([false, false]);
      expect((await h.call('get', followingList(ada)).expect(200)).body.map((p: { id: string }) => p.id)).toEqual([bob, star]);
      expect((await h.call('get', followers(ada), { userId: star }).expect(200)).body.map((p: { id: string; isFollowing: boolean }) => [p.id, p.isFollowing])).toEqual([[star, false]]);
      const loner = await person();
      expect((await h.call('get', followers(loner), { userId: star }).expect(200)).body).toEqual([]);
      expect((await h.call('get', followingList(loner)).expect(200)).body).toEqual([]);
    });

    it('pages with limit (default 20) and X-Next-Cursor, without skipping or repeating anyone', async () => {
      const star = await person('Star');
      const fans = Array.from({ length: 25 }, () => randomUUID());
      for (const userId of fans) await h.call('post', follow(star), { userId }).expect(200);
      // Several follows in one instant: the id breaks the tie.
      const sameTime = Array.from({ length: 4 }, () => randomUUID());
      await h.query(`INSERT INTO follows (follower_id, following_id, created_at) SELECT unnest($1::uuid[]), $2, '2020-01-01T00:00:00.123456Z'`, [sameTime, star]);

      const first = await h.call('get', followers(star)).expect(200);
      expect(first.body).toHaveLength(20);
      expect(first.headers['x-next-cursor']).toEqual(expect.any(String));
      const second = await h.call('get', `${followers(star)}?cursor=${first.headers['x-next-cursor']}`).expect(200);
      expect(second.body).toHaveLength(9);
      expect(second.headers['x-next-cursor']).toBeUndefined();
      const seen = [...first.body, ...second.body].map((p: { id: string }) => p.id);
      expect(new Set(seen).size).toBe(29);
      expect(seen.slice(0, 25)).toEqual([...fans].reverse());
      expect(new Set(seen.slice(25))).toEqual(new Set(sameTime));

      let cursor: string | undefined;
      const paged: string[] = [];
      do {
        const res = await h.call('get', `${followers(star)}?limit=3${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
        expect(res.body.length).toBeLessThanOrEqual(3);
        paged.push(...res.body.map((p: { id: string }) => p.id));
        cursor = res.headers['x-next-cursor'];
      } while (cursor);
      expect(paged).toEqual(seen);

      // The following list pages the same way.
      const fan = await person();
      await h.call('post', follow(star), { userId: fan }).expect(200);
      const idols = await Promise.all(Array.from({ length: 3 }, () => person()));
      for (const idol of idols) await h.call('post', follow(idol), { userId: fan }).expect(200);
      const a = await h.call('get', `${followingList(fan)}?limit=2`, { userId: fan }).expect(200);
      const b = await h.call('get', `${followingList(fan)}?limit=2&cursor=${a.headers['x-next-cursor']}`, { userId: fan }).expect(200);
      expect([...a.body, ...b.body].map((p: { id: string; isFollowing: boolean }) => [p.id, p.isFollowing])).toEqual([
        [idols[2], true], [idols[1], true], [idols[0], true], [star, true],
      ]);
    });

    it('refuses a bad limit or cursor (400)', async () => {
      const star = await person();
      for (const query of ['limit=0', 'limit=101', 'limit=ten', 'limit=2.5']) {
        expect((await h.call('get', `${followers(star)}?${query}`).expect(400)).body.message).toBe('Limit must be a whole number from 1 to 100');
      }
      for (const query of ['cursor=nope', `cursor=${Buffer.from('["x",1]').toString('base64url')}`]) {
        expect((await h.call('get', `${followingList(star)}?${query}`).expect(400)).body.message).toBe('Invalid cursor');
      }
      expect((await h.call('get', `${followers(star)}?sort=oldest`).expect(400)).body.message).toBe('Unknown field: sort');
    });
  });

  describe('a deleted account', () => {
    it('loses its follows both ways; the others\' counts go down with an event each; it cannot be followed again', async () => {
      const gone = await person('Gone');
      const [ada, bob, cy] = [await person(), await person(), await person()];
      await h.call('post', follow(gone), { userId: ada }).expect(200);
      await h.call('post', follow(gone), { userId: bob }).expect(200);
      await h.call('post', follow(cy), { userId: gone }).expect(200);
      await h.call('post', follow(cy), { userId: ada }).expect(200);
      const before = (await events()).length;

      // A sign-out is not a deletion.
      const logout = await h.publish(AuthEvents.SessionRevoked, { sessionId: randomUUID(), userId: gone, tokenHash: 'a'.repeat(64), reason: RevocationReason.LOGOUT });
      await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [logout])).length === 1);
      expect(await counts(gone)).toMatchObject({ followers: 2, following: 1 });

      // One event per revoked session: the second finds nothing left to do.
      for (let i = 0; i < 2; i++) {
        const eventId = await h.publish(AuthEvents.SessionRevoked, { sessionId: randomUUID(), userId: gone, tokenHash: 'b'.repeat(64), reason: RevocationReason.ACCOUNT_DELETED });
        await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1);
      }
      expect(await counts(gone)).toEqual({ followers: 0, following: 0, followers_count: null, following_count: null });
      expect(await counts(ada)).toEqual({ followers: 0, following: 1, followers_count: 0, following_count: 1 });
      expect(await counts(bob)).toEqual({ followers: 0, following: 0, followers_count: 0, following_count: 0 });
      expect(await counts(cy)).toEqual({ followers: 1, following: 0, followers_count: 1, following_count: 0 });

      const sent = (await events()).slice(before);
      expect(sent).toHaveLength(3);
      expect(sent.map((e) => [e.followerId, e.followeeId, e.active]).sort()).toEqual([[ada, gone, false], [bob, gone, false], [gone, cy, false]].sort());
      const toCy = sent.find((e) => e.followeeId === cy)!;
      expect(Number(toCy.followersCount)).toBe(1);
      expect(Number(sent.find((e) => e.followerId === ada)!.followingCount)).toBe(1);
      expect(Number(sent.find((e) => e.followerId === bob)!.followingCount)).toBe(0);

      expect((await h.call('post', follow(gone), { userId: ada }).expect(404)).body.message).toBe('User not found');
      expect((await h.call('get', followers(cy)).expect(200)).body.map((p: { id: string }) => p.id)).toEqual([ada]);
    });
  });
});
