import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { AuthEvents } from '@timeliner/proto';
import { type SocialHarness, startHarness, waitFor } from './harness.js';

/** A private account's posts reach only itself and its approved followers, on every read and write of them. */
describe('private accounts: content', () => {
  let h: SocialHarness;
  beforeAll(async () => {
    h = await startHarness('socialprivatecontent');
  });
  afterAll(async () => {
    await h.close();
  });

  let n = 0;
  const person = async (isPrivate = false) => {
    n += 1;
    const id = randomUUID();
    await h.publish(AuthEvents.UserRegistered, { userId: id, username: `pc_${n}`, displayName: `Person ${n}`, email: `pc_${n}@example.com`, isPrivate, profileVersion: 1n });
    await waitFor(async () => (await h.query('SELECT 1 FROM users WHERE id = $1', [id])).length === 1);
    return id;
  };
  const ids = (body: Array<{ id: string }>) => body.map((p) => p.id);
  const feedIds = async (userId: string, tab: string) => ((await h.call('get', `/api/feed?tab=${tab}`, { userId }).expect(200)).body as Array<{ id: string; post?: { id: string } }>).map((i) => i.post?.id ?? i.id);

  it('hides the posts from strangers (lists, feed, by id, likes and comments 404) until the follow request is approved', async () => {
    const [owner, stranger] = [await person(true), await person()];
    const post = (await h.call('post', '/api/posts', { userId: owner }).send({ content: 'Only for my followers #secret' }).expect(201)).body.id as string;

    const hidden = async () => {
      expect(ids((await h.call('get', '/api/posts', { userId: stranger }).expect(200)).body)).not.toContain(post);
      expect(ids((await h.call('get', '/api/posts').expect(200)).body)).not.toContain(post);
      await h.call('get', `/api/posts/${post}`, { userId: stranger }).expect(404);
      await h.call('get', `/api/posts/${post}`).expect(404);
      await h.call('get', `/api/posts/${post}/comments`, { userId: stranger }).expect(404);
      await h.call('post', `/api/posts/${post}/like`, { userId: stranger }).expect(404);
      await h.call('post', `/api/posts/${post}/comments`, { userId: stranger }).send({ content: 'hello' }).expect(404);
      await h.call('get', `/api/users/${owner}/timelines`, { userId: stranger }).expect(403);
      await h.call('get', `/api/users/${owner}/activity`, { userId: stranger }).expect(403);
      expect(JSON.stringify(await feedIds(stranger, 'for-you'))).not.toContain(post);
    };
    await hidden();
    // the owner sees all of it
    await h.call('get', `/api/posts/${post}`, { userId: owner }).expect(200);
    expect(ids((await h.call('get', '/api/posts', { userId: owner }).expect(200)).body)).toContain(post);

    // a pending request opens nothing
    await h.call('post', `/api/users/${owner}/follow`, { userId: stranger }).expect(200);
    await hidden();
    const likes = await h.query<{ likes_count: number }>('SELECT likes_count FROM posts WHERE id = $1', [post]);
    expect(likes[0]!.likes_count).toBe(0);

    // approved: the content appears
    await h.call('post', `/api/follow-requests/${stranger}/approve`, { userId: owner }).expect(200);
    await h.call('get', `/api/posts/${post}`, { userId: stranger }).expect(200);
    expect(ids((await h.call('get', '/api/posts', { userId: stranger }).expect(200)).body)).toContain(post);
    await h.call('get', `/api/users/${owner}/timelines`, { userId: stranger }).expect(200);
    await h.call('post', `/api/posts/${post}/like`, { userId: stranger }).expect(200);
    await waitFor(async () => JSON.stringify(await feedIds(stranger, 'following')).includes(post));
  });
});
