import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { create, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { FollowChangedSchema, SocialEvents } from '@timeliner/proto';
import { type AuthHarness, newUser, startHarness } from './harness.js';

const waitFor = async (check: () => Promise<boolean>, ms = 5_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/**
 * followersCount / followingCount of profiles come from the social service's FollowChanged
 * events, each with absolute counts and versions: only a newer version changes a count.
 */
describe('follow counts from FollowChanged', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startHarness('authfollows');
  });
  afterAll(async () => {
    await h.close();
  });

  /** A registered person and a caller identity of theirs. */
  const register = async () => {
    const res = await h.call('post', '/api/auth/register').send(newUser()).expect(201);
    const id = res.body.user.id as string;
    const [session] = await h.query<{ id: string }>('SELECT id FROM sessions WHERE user_id = $1', [id]);
    return { id, as: { userId: id, sessionId: session!.id } };
  };

  type Change = MessageInitShape<typeof FollowChangedSchema>;
  /** Publishes as the social service's relay would (same id = a redelivery) and waits until it is applied. */
  const deliver = async (change: Change, id = randomUUID()) => {
    await h.bus.publish({
      subject: SocialEvents.FollowChanged.subject,
      meta: { id, type: SocialEvents.FollowChanged.type, version: SocialEvents.FollowChanged.version, occurredAt: new Date().toISOString() },
      data: toBinary(FollowChangedSchema, create(FollowChangedSchema, { at: timestampFromDate(new Date()), ...change })),
    });
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).length === 1);
    return id;
  };
  const counts = async (userId: string) =>
    (await h.query<{ followers_count: number; following_count: number }>('SELECT followers_count, following_count FROM users WHERE id = $1', [userId]))[0]!;

  it('shows the counts on the profile and on /api/auth/me', async () => {
    const [ada, bob] = [await register(), await register()];
    await deliver({ followerId: ada.id, followeeId: bob.id, active: true, followersCount: 1n, followersVersion: 10n, followingCount: 1n, followingVersion: 11n });
    expect((await h.call('get', `/api/users/${bob.id}/profile`, ada.as).expect(200)).body).toMatchObject({ followersCount: 1, followingCount: 0 });
    expect((await h.call('get', `/api/users/${ada.id}/profile`, bob.as).expect(200)).body).toMatchObject({ followersCount: 0, followingCount: 1 });
    expect((await h.call('get', '/api/auth/me', bob.as).expect(200)).body).toMatchObject({ id: bob.id, followersCount: 1, followingCount: 0 });
    expect((await h.call('get', '/api/auth/me', ada.as).expect(200)).body).toMatchObject({ id: ada.id, followersCount: 0, followingCount: 1 });
  });

  it('keeps the newest version whatever the order events arrive in, and a repeat changes nothing', async () => {
    const [ada, bob, cy] = [await register(), await register(), await register()];
    // What social sent, in version order: ada follows bob (v1, v2), cy follows bob (v3, v4), ada unfollows bob (v5, v6).
    const sent: Change[] = [
      { followerId: ada.id, followeeId: bob.id, active: true, followersCount: 1n, followersVersion: 101n, followingCount: 1n, followingVersion: 102n },
      { followerId: cy.id, followeeId: bob.id, active: true, followersCount: 2n, followersVersion: 103n, followingCount: 1n, followingVersion: 104n },
      { followerId: ada.id, followeeId: bob.id, active: false, followersCount: 1n, followersVersion: 105n, followingCount: 0n, followingVersion: 106n },
    ];
    // Delivered newest first, then the oldest again (redelivered under its own id), then all once more.
    const ids = [await deliver(sent[2]!), await deliver(sent[1]!), await deliver(sent[0]!)];
    expect(await counts(bob.id)).toEqual({ followers_count: 1, following_count: 0 });
    expect(await counts(ada.id)).toEqual({ followers_count: 0, following_count: 0 });
    expect(await counts(cy.id)).toEqual({ followers_count: 0, following_count: 1 });

    await deliver(sent[0]!, ids[2]);
    for (const change of sent) await deliver(change);
    expect(await counts(bob.id)).toEqual({ followers_count: 1, following_count: 0 });
    expect(await counts(ada.id)).toEqual({ followers_count: 0, following_count: 0 });
    expect(await counts(cy.id)).toEqual({ followers_count: 0, following_count: 1 });

    // A newer change still moves it.
    await deliver({ followerId: ada.id, followeeId: bob.id, active: true, followersCount: 2n, followersVersion: 107n, followingCount: 1n, followingVersion: 108n });
    expect(await counts(bob.id)).toEqual({ followers_count: 2, following_count: 0 });
    expect(await counts(ada.id)).toEqual({ followers_count: 0, following_count: 1 });
    const [versions] = await h.query<{ followers_version: string; following_version: string }>('SELECT followers_version, following_version FROM users WHERE id = $1', [bob.id]);
    expect(versions).toEqual({ followers_version: '107', following_version: '0' });
  });

  it('takes each side on its own version: an older event can still carry the newer count of the other person', async () => {
    const [ada, bob, cy] = [await register(), await register(), await register()];
    // Out of order: cy→ada (v203, v204) arrives before ada→bob (v201, v202). They set different
    // counts (ada's followers, then ada's following), so both apply.
    await deliver({ followerId: cy.id, followeeId: ada.id, active: true, followersCount: 1n, followersVersion: 203n, followingCount: 1n, followingVersion: 204n });
    await deliver({ followerId: ada.id, followeeId: bob.id, active: true, followersCount: 1n, followersVersion: 201n, followingCount: 1n, followingVersion: 202n });
    expect(await counts(ada.id)).toEqual({ followers_count: 1, following_count: 1 });
    expect(await counts(bob.id)).toEqual({ followers_count: 1, following_count: 0 });
    expect(await counts(cy.id)).toEqual({ followers_count: 0, following_count: 1 });
  });

  it('ignores events about someone unknown or with a malformed id', async () => {
    const ada = await register();
    await deliver({ followerId: 'nope', followeeId: randomUUID(), active: true, followersCount: 5n, followersVersion: 301n, followingCount: 5n, followingVersion: 302n });
    await deliver({ followerId: ada.id, followeeId: 'nope', active: true, followersCount: 5n, followersVersion: 303n, followingCount: 3n, followingVersion: 304n });
    expect(await counts(ada.id)).toEqual({ followers_count: 0, following_count: 3 });
  });
});
