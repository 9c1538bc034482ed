import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { AuthEvents, FollowRequestChangedSchema, FollowRequestState, MuteChangedSchema, MutedWordsChangedSchema } from '@timeliner/proto';
import { waitFor } from './harness.js';
import { type SocialHarness, startHarness } from './harness.js';

/**
 * Mute an account and mute words or hashtags (issue 28) in the social service: both feed tabs
 * leave them out for the muter only; comments stay, marked hiddenByFilters (the screen collapses
 * them); a word lasts 24 hours, 7 days or until removed, and an expired one hides nothing. The
 * muted person is never told: no event names them to anyone but the read models.
 */
describe('mutes and muted words', () => {
  let h: SocialHarness;
  let n = 0;
  const person = async (name: string) => {
    n += 1;
    const id = randomUUID();
    await h.register(id, `${name.toLowerCase()}_${n}`, name);
    return id;
  };
  const feed = async (userId: string, tab: 'for-you' | 'following' = 'for-you') =>
    ((await h.call('get', `/api/feed?tab=${tab}&limit=50`, { userId }).expect(200)).body as Array<{ type: string; id: string; post?: { content: string } }>).map((i) => i.id);
  const write = async (userId: string, content: string) => ((await h.call('post', '/api/posts', { userId }).send({ content }).expect(201)).body as { id: string }).id;

  let mia: string, tom: string, una: string;
  let spoiler: string, plain: string, tagged: string;
  beforeAll(async () => {
    h = await startHarness('socialmutes');
    [mia, tom, una] = [await person('Mia'), await person('Tom'), await person('Una')];
    await h.call('post', `/api/users/${tom}/follow`, { userId: mia }).expect(200);
    await h.call('post', `/api/users/${una}/follow`, { userId: mia }).expect(200);
    spoiler = await write(una, 'Huge Spoiler: the ship comes home');
    plain = await write(una, 'A quiet harbour');
    tagged = await write(una, 'Tonight #finale watch party');
    await write(tom, 'Tom says hello');
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('leaves a muted account out of both feed tabs of the muter only, and back once unmuted', async () => {
    const toms = (await h.query<{ id: string }>('SELECT id FROM posts WHERE user_id = $1', [tom])).map((r) => r.id);
    expect(await feed(mia)).toEqual(expect.arrayContaining(toms));
    expect((await h.call('post', `/api/users/${tom}/mute`, { userId: mia }).expect(200)).body).toEqual({ muted: true });
    expect((await h.call('get', `/api/users/${tom}/mute`, { userId: mia }).expect(200)).body).toEqual({ muted: true });
    for (const tab of ['for-you', 'following'] as const) expect(await feed(mia, tab)).not.toEqual(expect.arrayContaining([toms[0]]));
    expect(await feed(una)).toEqual(expect.arrayContaining(toms));
    expect(((await h.call('get', '/api/mutes', { userId: mia }).expect(200)).body as Array<{ id: string }>).map((p) => p.id)).toEqual([tom]);
    // The event is for the read models; nothing tells Tom.
    const [event] = await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = 'social.mute.changed' ORDER BY position DESC LIMIT 1`);
    expect(fromBinary(MuteChangedSchema, event!.payload)).toMatchObject({ muterId: mia, mutedId: tom, active: true });
    await h.call('delete', `/api/users/${tom}/mute`, { userId: mia }).expect(200);
    expect(await feed(mia, 'following')).toEqual(expect.arrayContaining(toms));
  });

  it('hides posts with a muted word or hashtag from both tabs, and shows them again when the word expires or goes', async () => {
    const word = (await h.call('post', '/api/muted-words', { userId: mia }).send({ word: '  SPOILER ', duration: 'day' }).expect(201)).body as { id: string; word: string; expiresAt: string };
    expect(word.word).toBe('spoiler');
    expect(Date.parse(word.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect(Date.parse(word.expiresAt) - Date.now()).toBeLessThan(24.1 * 3_600_000);
    const tag = (await h.call('post', '/api/muted-words', { userId: mia }).send({ word: '#finale', duration: 'week' }).expect(201)).body as { id: string; expiresAt: string };
    expect(Date.parse(tag.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    for (const tab of ['for-you', 'following'] as const) {
      const ids = await feed(mia, tab);
      expect(ids).toContain(plain);
      expect(ids).not.toContain(spoiler);
      expect(ids).not.toContain(tagged);
    }
    expect(await feed(tom)).toEqual(expect.arrayContaining([spoiler, tagged]));
    const [event] = await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = 'social.muted_words.changed' ORDER BY position DESC LIMIT 1`);
    expect(fromBinary(MutedWordsChangedSchema, event!.payload).words.map((w) => w.word).sort()).toEqual(['#finale', 'spoiler']);

    // The day is over (the stored expiry passes): the post is back, and the list no longer has the word.
    await h.query(`UPDATE muted_words SET expires_at = now() - interval '1 second' WHERE id = $1`, [word.id]);
    expect(await feed(mia, 'following')).toContain(spoiler);
    expect(((await h.call('get', '/api/muted-words', { userId: mia }).expect(200)).body as Array<{ word: string }>).map((w) => w.word)).toEqual(['#finale']);
    await h.call('delete', `/api/muted-words/${tag.id}`, { userId: mia }).expect(204);
    await h.call('delete', `/api/muted-words/${tag.id}`, { userId: mia }).expect(404);
    expect(await feed(mia, 'following')).toContain(tagged);
  });

  it('applies every word of a long list (the words are matched a few patterns at a time), each still as a whole word', async () => {
    const una2 = await person('Una Two');
    await h.call('post', `/api/users/${una2}/follow`, { userId: tom }).expect(200);
    const words = Array.from({ length: 30 }, (_, i) => `lighthouse${i}`);
    const posts = new Map<string, string>();
    for (const i of [0, 7, 8, 15, 23, 29]) posts.set(words[i]!, await write(una2, `Seen from the ${words[i]!.toUpperCase()} tonight`));
    const partial = await write(una2, 'A lighthouse12x is not a muted word');
    const dotted = await write(una2, 'Regex a.b stays');
    for (const word of [...words, 'a+b', 'a.c']) await h.call('post', '/api/muted-words', { userId: tom }).send({ word }).expect(201);
    const ids = await feed(tom, 'following');
    for (const [word, id] of posts) expect([word, ids.includes(id)]).toEqual([word, false]);
    expect(ids).toEqual(expect.arrayContaining([partial, dotted]));
    // Once the list is gone, every post is back.
    for (const muted of (await h.call('get', '/api/muted-words', { userId: tom }).expect(200)).body as Array<{ id: string }>) await h.call('delete', `/api/muted-words/${muted.id}`, { userId: tom }).expect(204);
    expect(await feed(tom, 'following')).toEqual(expect.arrayContaining([...posts.values(), partial, dotted]));
  });

  it('keeps comments with a muted word or by a muted account, marked hiddenByFilters for the muter only', async () => {
    await h.call('post', `/api/posts/${plain}/comments`, { userId: tom }).send({ content: 'no spoiler here, promise' }).expect(201);
    await h.call('post', `/api/posts/${plain}/comments`, { userId: una }).send({ content: 'thanks all' }).expect(201);
    const comments = async (userId: string) =>
      ((await h.call('get', `/api/posts/${plain}/comments`, { userId }).expect(200)).body as Array<{ content: string; hiddenByFilters?: boolean }>).map((c) => [c.content, c.hiddenByFilters ?? false]);
    expect(await comments(mia)).toEqual(expect.arrayContaining([['no spoiler here, promise', false], ['thanks all', false]]));
    await h.call('post', '/api/muted-words', { userId: mia }).send({ word: 'promise' }).expect(201);
    expect(await comments(mia)).toEqual(expect.arrayContaining([['no spoiler here, promise', true], ['thanks all', false]]));
    await h.call('post', `/api/users/${una}/mute`, { userId: mia }).expect(200);
    expect(await comments(mia)).toEqual(expect.arrayContaining([['no spoiler here, promise', true], ['thanks all', true]]));
    expect((await comments(tom)).every(([, hidden]) => hidden === false)).toBe(true);
  });

  it('a block withdraws pending follow requests either way, each announced, and the blocked account is listed for the blocker only', async () => {
    const [owner, asker] = [await person('Olive'), await person('Abe')];
    await h.publish(AuthEvents.UserUpdated, { userId: owner, username: `olive_${n}`, displayName: 'Olive', isPrivate: true, profileVersion: 2n });
    await waitFor(async () => (await h.query<{ is_private: boolean }>('SELECT is_private FROM users WHERE id = $1', [owner]))[0]!.is_private);
    await h.call('post', `/api/users/${owner}/follow`, { userId: asker }).expect(200);
    expect(await h.query('SELECT 1 FROM follow_requests WHERE requester_id = $1 AND target_id = $2', [asker, owner])).toHaveLength(1);
    await h.call('post', `/api/users/${asker}/block`, { userId: owner }).expect(200);
    expect(await h.query('SELECT 1 FROM follow_requests WHERE requester_id = $1 OR target_id = $1', [asker])).toEqual([]);
    expect(((await h.call('get', '/api/follow-requests/count', { userId: owner }).expect(200)).body as { count: number }).count).toBe(0);
    const [event] = await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = 'social.follow_request.changed' ORDER BY position DESC LIMIT 1`);
    expect(fromBinary(FollowRequestChangedSchema, event!.payload)).toMatchObject({ requesterId: asker, targetId: owner, state: FollowRequestState.CANCELLED });
    await h.call('post', `/api/users/${owner}/follow`, { userId: asker }).expect(404);
    expect(((await h.call('get', '/api/blocks', { userId: owner }).expect(200)).body as Array<{ id: string }>).map((p) => p.id)).toEqual([asker]);
    expect((await h.call('get', '/api/blocks', { userId: asker }).expect(200)).body).toEqual([]);
  });

  it('refuses bad input and changes nothing', async () => {
    await h.call('post', '/api/muted-words', { userId: mia }).send({ word: '   ' }).expect(400);
    await h.call('post', '/api/muted-words', { userId: mia }).send({ word: 'x'.repeat(101) }).expect(400);
    await h.call('post', '/api/muted-words', { userId: mia }).send({ word: 'ok', duration: 'month' }).expect(400);
    await h.call('post', '/api/muted-words', { userId: mia }).send({ word: 'ok', extra: 1 }).expect(400);
    await h.call('post', '/api/muted-words').send({ word: 'ok' }).expect(401);
    await h.call('post', `/api/users/${mia}/mute`, { userId: mia }).expect(400);
    await h.call('post', `/api/users/${mia}/block`, { userId: mia }).expect(400);
    await h.call('post', `/api/users/${randomUUID()}/block`, { userId: mia }).expect(404);
    await h.call('post', '/api/users/not-a-uuid/mute', { userId: mia }).expect(404);
    await h.call('delete', '/api/muted-words/not-a-uuid', { userId: mia }).expect(404);
    expect(await h.query(`SELECT word FROM muted_words WHERE word = 'ok' OR length(word) > 100`)).toEqual([]);
  });
});
