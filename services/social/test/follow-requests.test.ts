import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { AuthEvents, FollowChangedSchema, FollowRequestChangedSchema, FollowRequestState } from '@timeliner/proto';
import { type SocialHarness, startHarness, waitFor } from './harness.js';

describe('follow requests (private accounts)', () => {
  let h: SocialHarness;
  beforeAll(async () => {
    h = await startHarness('socialfollowrequests');
  });
  afterAll(async () => {
    await h.close();
  });

  let n = 0;
  const person = async (isPrivate = false) => {
    n += 1;
    const id = randomUUID();
    await h.publish(AuthEvents.UserRegistered, { userId: id, username: `fr_${n}`, displayName: `Person ${n}`, email: `fr_${n}@example.com`, isPrivate, profileVersion: 1n });
    await waitFor(async () => (await h.query('SELECT 1 FROM users WHERE id = $1', [id])).length === 1);
    return id;
  };
  const follow = (id: string) => `/api/users/${id}/follow`;
  const status = (id: string) => `/api/users/${id}/following`;
  const requestEvents = async (targetId: string) =>
    (await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = 'social.follow_request.changed' ORDER BY position`))
      .map((row) => fromBinary(FollowRequestChangedSchema, row.payload))
      .filter((e) => e.targetId === targetId);
  const followEvents = async (followeeId: string) =>
    (await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = 'social.follow.changed'`)).map((row) => fromBinary(FollowChangedSchema, row.payload)).filter((e) => e.followeeId === followeeId).length;

  it('following a private account is a request: not a follower, no count moves, the owner sees it and its count', async () => {
    const [owner, asker] = [await person(true), await person()];
    const res = await h.call('post', follow(owner), { userId: asker }).expect(200);
    expect(res.body).toEqual({ isFollowing: false, isRequested: true, followersCount: 0, followingCount: 0 });
    // asking again changes nothing
    await h.call('post', follow(owner), { userId: asker }).expect(200);
    expect((await h.call('get', status(owner), { userId: asker }).expect(200)).body).toEqual({ isFollowing: false, isRequested: true, followersCount: 0, followingCount: 0 });
    expect(await h.query('SELECT 1 FROM follows WHERE following_id = $1', [owner])).toHaveLength(0);
    expect(await followEvents(owner)).toBe(0);
    // the private account's lists stay closed to the requester
    await h.call('get', `/api/users/${owner}/followers`, { userId: asker }).expect(403);

    expect((await h.call('get', '/api/follow-requests/count', { userId: owner }).expect(200)).body).toEqual({ count: 1 });
    const list = (await h.call('get', '/api/follow-requests', { userId: owner }).expect(200)).body;
    expect(list).toEqual([{ id: asker, username: expect.stringMatching(/^fr_/), displayName: expect.any(String), avatar: null, requestedAt: expect.any(String) }]);
    // someone else's requests are their own
    expect((await h.call('get', '/api/follow-requests', { userId: asker }).expect(200)).body).toEqual([]);
    await h.call('get', '/api/follow-requests').expect(401);

    const events = await requestEvents(owner);
    expect(events.map((e) => [e.requesterId, e.state, e.pendingCount])).toEqual([[asker, FollowRequestState.REQUESTED, 1n]]);
  });

  it('approve makes the follow (counts move once); decline and taking back only remove the request', async () => {
    const [owner, ada, bob, cy] = [await person(true), await person(), await person(), await person()];
    for (const who of [ada, bob, cy]) await h.call('post', follow(owner), { userId: who }).expect(200);
    expect((await h.call('get', '/api/follow-requests/count', { userId: owner }).expect(200)).body).toEqual({ count: 3 });

    // only the owner answers, only existing requests
    await h.call('post', `/api/follow-requests/${ada}/approve`, { userId: bob }).expect(404);
    await h.call('post', `/api/follow-requests/${randomUUID()}/approve`, { userId: owner }).expect(404);
    await h.call('post', '/api/follow-requests/not-a-uuid/decline', { userId: owner }).expect(404);

    expect((await h.call('post', `/api/follow-requests/${ada}/approve`, { userId: owner }).expect(200)).body).toEqual({ count: 2 });
    expect((await h.call('get', status(owner), { userId: ada }).expect(200)).body).toEqual({ isFollowing: true, isRequested: false, followersCount: 1, followingCount: 0 });
    await h.call('get', `/api/users/${owner}/followers`, { userId: ada }).expect(200);
    await h.call('post', `/api/follow-requests/${ada}/approve`, { userId: owner }).expect(404);

    expect((await h.call('post', `/api/follow-requests/${bob}/decline`, { userId: owner }).expect(200)).body).toEqual({ count: 1 });
    expect((await h.call('get', status(owner), { userId: bob }).expect(200)).body).toEqual({ isFollowing: false, isRequested: false, followersCount: 1, followingCount: 0 });

    expect((await h.call('delete', follow(owner), { userId: cy }).expect(200)).body).toEqual({ isFollowing: false, isRequested: false, followersCount: 1, followingCount: 0 });
    expect((await h.call('get', '/api/follow-requests/count', { userId: owner }).expect(200)).body).toEqual({ count: 0 });

    const states = (await requestEvents(owner)).map((e) => [e.requesterId, e.state]);
    expect(states.slice(3)).toEqual([[ada, FollowRequestState.APPROVED], [bob, FollowRequestState.DECLINED], [cy, FollowRequestState.CANCELLED]]);
    const counts = await h.query<{ followers_count: number }>('SELECT followers_count FROM follow_counts WHERE user_id = $1', [owner]);
    expect(counts[0]!.followers_count).toBe(1);
  });

  it('an approved follower who unfollows asks again next time', async () => {
    const [owner, ada] = [await person(true), await person()];
    await h.call('post', follow(owner), { userId: ada }).expect(200);
    await h.call('post', `/api/follow-requests/${ada}/approve`, { userId: owner }).expect(200);
    await h.call('post', follow(owner), { userId: ada }).expect(200).expect((res) => expect(res.body).toMatchObject({ isFollowing: true, isRequested: false }));
    await h.call('delete', follow(owner), { userId: ada }).expect(200);
    expect((await h.call('post', follow(owner), { userId: ada }).expect(200)).body).toMatchObject({ isFollowing: false, isRequested: true, followersCount: 0 });
  });

  it('private → public approves every pending request; public → private keeps the followers', async () => {
    const [owner, ada, bob, fan] = [await person(false), await person(), await person(), await person()];
    await h.call('post', follow(owner), { userId: fan }).expect(200).expect((res) => expect(res.body.isFollowing).toBe(true));
    await h.publish(AuthEvents.UserUpdated, { userId: owner, username: `owner_${n}`, displayName: 'Owner', isPrivate: true, profileVersion: 2n });
    await waitFor(async () => (await h.query<{ is_private: boolean }>('SELECT is_private FROM users WHERE id = $1', [owner]))[0]!.is_private);
    expect((await h.call('get', status(owner), { userId: fan }).expect(200)).body).toMatchObject({ isFollowing: true, followersCount: 1 });

    for (const who of [ada, bob]) await h.call('post', follow(owner), { userId: who }).expect(200).expect((res) => expect(res.body.isRequested).toBe(true));
    await h.publish(AuthEvents.UserUpdated, { userId: owner, username: `owner_${n}`, displayName: 'Owner', isPrivate: false, profileVersion: 3n });
    await waitFor(async () => (await h.query('SELECT 1 FROM follow_requests WHERE target_id = $1', [owner])).length === 0);
    for (const who of [ada, bob]) expect((await h.call('get', status(owner), { userId: who }).expect(200)).body).toMatchObject({ isFollowing: true, isRequested: false });
    expect((await h.call('get', status(owner)).expect(200)).body).toMatchObject({ followersCount: 3 });
    expect((await requestEvents(owner)).map((e) => e.state)).toEqual([FollowRequestState.REQUESTED, FollowRequestState.REQUESTED, FollowRequestState.APPROVED, FollowRequestState.APPROVED]);
  });
});
