import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { AuthEvents } from '@timeliner/proto';
import { type SearchHarness, startHarness, uniqueWord, waitFor } from './harness.js';

/** A private account's timelines leave search and discovery for everyone but the account; its profile header stays findable. */
describe('search and private accounts', () => {
  let h: SearchHarness;
  const owner = randomUUID();
  const stranger = randomUUID();
  const word = uniqueWord('hush');
  let timelineId = '';

  const timelineIds = async (as: string | undefined, q: string) =>
    ((await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}&type=timelines`, as ? { userId: as } : {}).expect(200)).body as { timelines: Array<{ id: string }> }).timelines.map((t) => t.id);
  const userIds = async (as: string, q: string) =>
    ((await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}&type=users`, { userId: as }).expect(200)).body as { users: Array<{ id: string }> }).users.map((u) => u.id);
  const tags = async (as: string, q: string) =>
    ((await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}&type=hashtags`, { userId: as }).expect(200)).body as { hashtags: Array<{ name: string }> }).hashtags.map((t) => t.name);
  const trending = async () => ((await h.call('get', '/api/hashtags/trending').expect(200)).body as Array<{ name: string }>).map((t) => t.name);
  const popular = async () => ((await h.call('get', '/api/discover/popular/timeline').expect(200)).body as Array<{ id: string }>).map((t) => t.id);
  const setPrivate = async (isPrivate: boolean, profileVersion: bigint) => {
    await h.publish(AuthEvents.UserUpdated, { userId: owner, username: `owner_${word}`, displayName: `Owner ${word}`, isPrivate, profileVersion });
    await waitFor(async () => (await h.query<{ is_private: boolean }>('SELECT is_private FROM users WHERE id = $1', [owner]))[0]!.is_private === isPrivate, 2_000);
  };

  beforeAll(async () => {
    h = await startHarness('searchprivateaccounts');
    await h.register(`owner_${word}`, `Owner ${word}`, owner);
    await h.register(`stranger_${word}`, 'Stranger', stranger);
    timelineId = (await h.timeline({ title: `${word} by the lake`, creatorId: owner, creatorName: 'Owner' })).timelineId;
    await h.post(owner, [`${word}tag`]);
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('finds the timeline while the account is public, not once it is private (within 2 s), and again once public', async () => {
    expect(await timelineIds(stranger, word)).toContain(timelineId);
    expect(await popular()).toContain(timelineId);
    expect(await tags(stranger, `${word}tag`)).toContain(`${word}tag`);
    expect(await trending()).toContain(`${word}tag`);

    await setPrivate(true, 5n);
    // the hashtags only it uses, and their counts, go with it
    expect(await tags(stranger, `${word}tag`)).not.toContain(`${word}tag`);
    expect(await trending()).not.toContain(`${word}tag`);
    expect(await timelineIds(stranger, word)).not.toContain(timelineId);
    expect(await timelineIds(undefined, word)).not.toContain(timelineId);
    expect(await popular()).not.toContain(timelineId);
    // the account itself still finds its own, and everyone finds the profile header
    expect(await timelineIds(owner, word)).toContain(timelineId);
    expect(await userIds(stranger, word)).toContain(owner);

    await setPrivate(false, 6n);
    expect(await timelineIds(stranger, word)).toContain(timelineId);
  });
});
