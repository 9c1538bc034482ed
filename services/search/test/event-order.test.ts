import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvents, SocialEvents } from '@timeliner/proto';
import { type SearchHarness, startHarness } from './harness.js';

/**
 * The consumers that join an event to the people copy (fed by the auth service's registrations,
 * another subject), delivered the event before the registration: the outcome equals the normal
 * order's. The event is tried again until the person is known, never skipped. Real Postgres and NATS.
 */
describe('search: events before the registration they depend on', () => {
  let h: SearchHarness;

  beforeAll(async () => {
    h = await startHarness('searchorder');
  });
  afterAll(async () => {
    await h?.close();
  });

  const person = async (userId: string) =>
    (await h.query<{ username: string; display_name: string; followers_count: number }>('SELECT username, display_name, followers_count FROM users WHERE id = $1', [userId]))[0];

  it.each(['normal', 'reversed'] as const)('a profile change and a new follower, %s order', async (order) => {
    const userId = randomUUID();
    const register = () => h.publish(AuthEvents.UserRegistered, { userId, username: `grace${order}`, displayName: 'Grace', email: `grace${order}@example.com` });
    const dependents = async () => [
      await h.publish(AuthEvents.UserUpdated, { userId, displayName: 'Grace Hopper' }),
      await h.publish(SocialEvents.FollowChanged, { followerId: randomUUID(), followeeId: userId, active: true, followersCount: 1n, followersVersion: 1n }),
    ];
    let ids: string[];
    if (order === 'normal') {
      await h.settle(await register());
      ids = await dependents();
    } else {
      ids = await dependents();
      await new Promise((r) => setTimeout(r, 300));
      expect(await h.query('SELECT 1 FROM inbox WHERE event_id = ANY($1::uuid[])', [ids])).toHaveLength(0);
      await h.settle(await register());
    }
    await h.settle(...ids);
    expect(await person(userId)).toEqual({ username: `grace${order}`, display_name: 'Grace Hopper', followers_count: 1 });
  }, 20_000);

  it('profile changes handled out of order: the newest version stays, whatever comes last', async () => {
    const userId = randomUUID();
    const profile = (version: number, name: string) => ({
      userId, username: 'ada', displayName: name, bio: `bio ${version}`, avatar: '', location: '', website: '', isPrivate: version === 3, email: 'ada@example.com', profileVersion: BigInt(version),
    });
    // Version 3 first, then 2 (a retry that waited longer), then the registration (version 1).
    await h.settle(await h.publish(AuthEvents.UserRegistered, { userId, username: 'ada', displayName: 'Ada', email: 'ada@example.com', profileVersion: 1n }));
    await h.settle(await h.publish(AuthEvents.UserUpdated, profile(3, 'Ada Lovelace')));
    await h.settle(await h.publish(AuthEvents.UserUpdated, profile(2, 'Ada King')));
    await h.settle(await h.publish(AuthEvents.UserRegistered, { userId, username: 'ada', displayName: 'Ada', email: 'ada@example.com', profileVersion: 1n }));
    const row = async () => (await h.query('SELECT display_name, bio, is_private, profile_version::int AS v FROM users WHERE id = $1', [userId]))[0];
    expect(await row()).toEqual({ display_name: 'Ada Lovelace', bio: 'bio 3', is_private: true, v: 3 });
    // An event from before versions still changes only what it carries.
    await h.settle(await h.publish(AuthEvents.UserUpdated, { userId, bio: 'Counted numbers' }));
    expect(await row()).toEqual({ display_name: 'Ada Lovelace', bio: 'Counted numbers', is_private: true, v: 3 });
  }, 20_000);
});
