import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requestRpc } from '@timeliner/platform';
import { AuthEvents, SocialEvents, TimelinesRpc } from '@timeliner/proto';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/** A private account's timelines, whatever their visibility, reach only itself, its team and its approved followers. */
describe('private accounts', () => {
  let h: TimelinesHarness;
  let owner: Person;
  let follower: Person;
  let stranger: Person;
  let version = 0n;
  beforeAll(async () => {
    h = await startHarness('tlprivate');
    [owner, follower, stranger] = [await h.register(), await h.register(), await h.register()];
  });
  afterAll(async () => {
    await h.close();
  });

  const published = async (visibility: string) => {
    const t = (await h.call('post', '/api/timelines', as(owner)).send({ title: `A ${visibility} one`, visibility }).expect(201)).body as { id: string };
    await h.call('patch', `/api/timelines/${t.id}`, as(owner)).send({ status: 'published' }).expect(200);
    return t.id;
  };
  const setPrivate = async (isPrivate: boolean) => {
    version += 10n;
    await h.publish(AuthEvents.UserUpdated, { userId: owner.userId, username: owner.username, displayName: owner.displayName, email: owner.email, isPrivate, profileVersion: version });
    await h.waitFor(async () => (await h.query<{ is_private: boolean }>('SELECT is_private FROM users WHERE id = $1', [owner.userId]))[0]!.is_private === isPrivate);
  };
  const follow = async (who: Person, active: boolean, followersVersion: bigint) => {
    await h.publish(SocialEvents.FollowChanged, { followerId: who.userId, followeeId: owner.userId, active, followersVersion, followersCount: active ? 1n : 0n });
    await h.waitFor(async () => (await h.query<{ version: string }>('SELECT version FROM account_follows WHERE follower_id = $1 AND followee_id = $2', [who.userId, owner.userId]))[0]?.version === followersVersion.toString());
  };
  const check = (timelineId: string, userId = '') => requestRpc(h.bus, TimelinesRpc.CheckAccess, { timelineId, userId }, { timeoutMs: 2_000 });
  const listed = async (who?: Person) => ((await h.call('get', '/api/timelines', who ? as(who) : {}).expect(200)).body as Array<{ id: string }>).map((t) => t.id);

  it('hides the timelines from strangers and anonymous callers (404, not listed, CheckAccess false) and shows them to approved followers', async () => {
    const [pub, unlisted] = [await published('public'), await published('unlisted')];
    await setPrivate(true);
    for (const id of [pub, unlisted]) {
      await h.call('get', `/api/timelines/${id}`).expect(404);
      await h.call('get', `/api/timelines/${id}`, as(stranger)).expect(404);
      await h.call('get', `/api/timelines/${id}`, as(follower)).expect(404);
      await h.call('get', `/api/timelines/${id}`, as(owner)).expect(200);
      expect((await check(id, stranger.userId)).canView).toBe(false);
      expect((await check(id)).canView).toBe(false);
      expect((await check(id, owner.userId)).canView).toBe(true);
    }
    expect(await listed()).not.toContain(pub);
    expect(await listed(stranger)).not.toContain(pub);
    expect(await listed(owner)).toContain(pub);

    await follow(follower, true, 5n);
    await h.call('get', `/api/timelines/${pub}`, as(follower)).expect(200);
    expect((await check(unlisted, follower.userId)).canView).toBe(true);
    expect(await listed(follower)).toContain(pub);
    expect(await listed(stranger)).not.toContain(pub);

    // an older follow event never undoes a newer unfollow
    await follow(follower, false, 7n);
    await h.publish(SocialEvents.FollowChanged, { followerId: follower.userId, followeeId: owner.userId, active: true, followersVersion: 6n, followersCount: 1n });
    await new Promise((r) => setTimeout(r, 300));
    await h.call('get', `/api/timelines/${pub}`, as(follower)).expect(404);

    // public again: everyone
    await setPrivate(false);
    await h.call('get', `/api/timelines/${pub}`).expect(200);
    expect((await check(pub, stranger.userId)).canView).toBe(true);
    expect(await listed()).toContain(pub);
  });
});
