import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { decodeCursor, encodeCursor, type SignedInCaller } from '@timeliner/platform';
import { DataSource } from 'typeorm';
import { FeedRepository } from '../src/feed/feed.repository.js';
import { FeedService } from '../src/feed/feed.service.js';
import { ForYouSnapshots } from '../src/feed/for-you-snapshot.js';
import { PostRepository } from '../src/posts/post.repository.js';
import { type SocialHarness, startHarness } from './harness.js';

interface Item { type: 'post' | 'timeline'; id: string; post?: { likesCount: number; liked: boolean; isLiked: boolean; bookmarked: boolean; user: { displayName: string; username: string } }; timeline?: { title: string; likesCount: number; isLiked: boolean; liked: boolean; creator: { displayName: string } } }

describe('the home feed', () => {
  let h: SocialHarness;
  const ana = randomUUID();
  const bo = randomUUID();
  const cy = randomUUID();
  const timelines: Record<string, string> = {};

  /** A timeline as the read model holds it after its snapshot. */
  const addTimeline = async (title: string, creator: string, options: { visibility?: string; status?: string; score?: number; at?: string } = {}) => {
    const id = randomUUID();
    const score = options.score ?? 10;
    await h.query(
      `INSERT INTO feed_timelines (id, creator_id, creator_name, title, visibility, status, activity_score, score_band, last_activity_at, updated_at, revision, key_changed_at)
       VALUES ($1, $2, 'Creator', $3, $4, $5, $6::float8, floor($6::float8 * 10), $7, now(), 1, now() - interval '1 hour')`,
      [id, creator, title, options.visibility ?? 'public', options.status ?? 'published', score, options.at ?? new Date().toISOString()],
    );
    timelines[title] = id;
    return id;
  };
  const post = async (userId: string, content: string) => (await h.call('post', '/api/posts', { userId }).send({ content }).expect(201)).body.id as string;
  const page = async (userId: string, query: string) => {
    const res = await h.call('get', `/api/feed${query}`, { userId }).expect(200);
    return { items: res.body as Item[], next: res.headers['x-next-cursor'] as string | undefined };
  };
  const readAll = async (userId: string, tab: string, limit: number, between?: (n: number) => Promise<void>) => {
    const seen: Item[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { items, next } = await page(userId, `?tab=${tab}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...items);
      cursor = next;
      pages += 1;
      if (between) await between(pages);
    } while (cursor && pages < 200);
    return { seen, pages };
  };

  beforeAll(async () => {
    h = await startHarness('socialfeed');
    await h.register(ana, 'ana', 'Ana Lima');
    await h.register(bo, 'bo', 'Bo Berg');
    await h.register(cy, 'cy', 'Cy Cruz');
    for (let i = 0; i < 30; i += 1) await post(i % 2 ? ana : cy, `post ${i}`);
    const now = Date.now();
    for (let i = 0; i < 20; i += 1) await addTimeline(`public ${i}`, i % 2 ? ana : cy, { score: (now - Date.parse('2025-01-01')) / 172_800_000 + (i % 5), at: new Date(now - i * 60_000).toISOString() });
    await addTimeline('private', ana, { visibility: 'private' });
    await addTimeline('unlisted', ana, { visibility: 'unlisted' });
    await addTimeline('draft', ana, { status: 'draft' });
  });
  afterAll(async () => {
    await h.close();
  });

  it('interleaves posts and public published timelines by band, then newest activity, with counts and the caller\'s state', async () => {
    const liked = timelines['public 3']!;
    await h.call('post', `/api/timelines/${liked}/like`, { userId: bo }).expect(404); // not visible to the stand-in access policy
    h.override(liked, true);
    await h.call('post', `/api/timelines/${liked}/like`, { userId: bo }).expect(200);
    const { seen } = await readAll(bo, 'for-you', 50);
    expect(seen).toHaveLength(50);
    expect(new Set(seen.map((i) => i.type))).toEqual(new Set(['post', 'timeline']));
    const titles = seen.filter((i) => i.type === 'timeline').map((i) => i.timeline!.title);
    expect(titles).not.toEqual(expect.arrayContaining(['private']));
    for (const hidden of ['private', 'unlisted', 'draft']) expect(titles).not.toContain(hidden);
    const rows = await h.query<{ id: string; band: number; at: string }>(
      `SELECT id, score_band AS band, last_activity_at::text AS at FROM posts UNION ALL SELECT id, score_band, last_activity_at::text FROM feed_timelines WHERE visibility = 'public' AND status = 'published'`,
    );
    const key = new Map(rows.map((r) => [r.id, r]));
    for (let i = 1; i < seen.length; i += 1) {
      const a = key.get(seen[i - 1]!.id)!;
      const b = key.get(seen[i]!.id)!;
      expect(a.band > b.band || (a.band === b.band && Date.parse(a.at) >= Date.parse(b.at))).toBe(true);
    }
    const likedItem = seen.find((i) => i.id === liked)!;
    expect(likedItem.timeline).toMatchObject({ likesCount: 1, isLiked: true, creator: { displayName: 'Ana Lima' } });
    expect(seen.find((i) => i.type === 'post')!.post!.user.displayName).toMatch(/Ana Lima|Cy Cruz/);
  });

  it('reads 50 pages while posts and likes keep arriving without a duplicate or a gap', async () => {
    const before = new Set((await readAll(bo, 'for-you', 50)).seen.map((i) => i.id));
    const postIds = (await h.query<{ id: string }>('SELECT id FROM posts')).map((r) => r.id);
    let n = 0;
    const { seen, pages } = await readAll(bo, 'for-you', 1, async () => {
      // Between pages: likes that move items up and down, and new posts.
      const target = postIds[(n * 7) % postIds.length]!;
      await h.call(n % 3 === 2 ? 'delete' : 'post', `/api/posts/${target}/like`, { userId: [ana, bo, cy][n % 3]! }).expect(200);
      if (n % 5 === 0) await post(cy, `arriving ${n}`);
      if (n % 4 === 0) await h.call('post', `/api/posts/${target}/comments`, { userId: ana }).send({ content: 'again' }).expect(201);
      n += 1;
    });
    expect(pages).toBeGreaterThanOrEqual(50);
    const ids = seen.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of before) expect(ids).toContain(id);
  });

  it('following: the people followed and the caller, newest first; others\' non-public timelines never', async () => {
    await h.call('post', `/api/users/${ana}/follow`, { userId: bo }).expect(200);
    const own = await post(bo, 'my own');
    const { seen } = await readAll(bo, 'following', 7);
    const authors = new Set(seen.filter((i) => i.type === 'post').map((i) => i.post!.user.displayName));
    expect(authors).toEqual(new Set(['Ana Lima', 'Bo Berg']));
    expect(seen[0]!.id).toBe(own);
    const titles = seen.filter((i) => i.type === 'timeline').map((i) => i.timeline!.title);
    expect(titles.length).toBe(10);
    for (const hidden of ['private', 'unlisted', 'draft']) expect(titles).not.toContain(hidden);
    const ids = seen.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('following: each card with its counts and the caller\'s like, as the card of the same item in for-you', async () => {
    const anaPost = await post(ana, 'liked by bo');
    const anaTimeline = timelines['public 1']!;
    h.override(anaTimeline, true);
    await h.call('post', `/api/posts/${anaPost}/like`, { userId: bo }).expect(200);
    await h.call('post', `/api/posts/${anaPost}/like`, { userId: cy }).expect(200);
    await h.call('post', `/api/timelines/${anaTimeline}/like`, { userId: bo }).expect(200);
    const following = (await readAll(bo, 'following', 50)).seen;
    const forYou = (await readAll(bo, 'for-you', 50)).seen;
    const likedPost = following.find((i) => i.id === anaPost)!;
    expect(likedPost.post).toMatchObject({ likesCount: 2, liked: true, isLiked: true, bookmarked: false, user: { displayName: 'Ana Lima', username: 'ana' } });
    expect(following.find((i) => i.id === anaTimeline)!.timeline).toMatchObject({ isLiked: true, liked: true, creator: { displayName: 'Ana Lima' } });
    // The same item answers the same card on either tab.
    for (const id of [anaPost, anaTimeline]) expect(following.find((i) => i.id === id)).toEqual(forYou.find((i) => i.id === id));
    // Someone else sees the counts without bo's like.
    await h.call('post', `/api/users/${ana}/follow`, { userId: cy }).expect(200);
    const cyView = (await readAll(cy, 'following', 50)).seen.find((i) => i.id === anaPost)!;
    expect(cyView.post).toMatchObject({ likesCount: 2, liked: true });
    const anaView = (await readAll(ana, 'following', 50)).seen.find((i) => i.id === anaPost)!;
    expect(anaView.post).toMatchObject({ likesCount: 2, liked: false });
  });

  it('leaves out what the caller reported, for them only', async () => {
    const victim = timelines['public 0']!;
    h.override(victim, true);
    await h.call('post', '/api/reports', { userId: bo }).send({ contentType: 'timeline', contentId: victim, reason: 'spam' }).expect(201);
    expect((await readAll(bo, 'for-you', 50)).seen.map((i) => i.id)).not.toContain(victim);
    expect((await readAll(cy, 'for-you', 50)).seen.map((i) => i.id)).toContain(victim);
  });

  it('answers a first for-you page from the shared snapshot exactly as the database would, with today\'s counts and the caller\'s state', async () => {
    const ds = h.service.app.get(DataSource);
    const repo = new FeedRepository(ds);
    const posts = new PostRepository(ds);
    let ranked = 0;
    // The snapshot's repository counts the rankings it runs: one per snapshot, one per fallback to the database path.
    const counting = Object.assign(Object.create(repo) as FeedRepository, {
      forYou: (...args: Parameters<FeedRepository['forYou']>) => {
        ranked += 1;
        return repo.forYou(...args);
      },
    });
    const snapshots = new ForYouSnapshots(counting, posts, { size: 40, maxAgeMs: 600_000 });
    const fast = new FeedService(counting, posts, snapshots);
    const slow = new FeedService(repo, posts);
    const as = (userId: string): SignedInCaller => ({ userId, sessionId: randomUUID(), requestId: randomUUID(), clientIp: '127.0.0.1' });
    /** The fast page, checked against the database's order as of the snapshot's read time and its current cards. */
    const check = async (userId: string, limit = 20) => {
      const page = await fast.page(as(userId), { tab: 'for-you', limit });
      const readAt = decodeCursor(page.nextCursor!, ['timestamp', 'int', 'timestamp', 'uuid'])[0] as string;
      const order = (await repo.forYou(userId, { readAt }, limit)).map((s) => s.id);
      expect(page.items.map((i) => i.id)).toEqual(order);
      const current = new Map((await slow.page(as(userId), { tab: 'for-you', limit: 50 })).items.map((i) => [i.id, i]));
      for (const item of page.items) if (current.has(item.id)) expect(item).toEqual(current.get(item.id));
      // The cursor goes on through the database with the snapshot's read time.
      const next = await slow.page(as(userId), { tab: 'for-you', limit, cursor: page.nextCursor });
      const both = [...page.items, ...next.items].map((i) => i.id);
      expect(both).toEqual((await repo.forYou(userId, { readAt }, limit * 2)).map((s) => s.id));
      return page.items;
    };
    // Callers with nothing of their own in the feed: a caller's own item that changed in the last
    // seconds sends their page to the database (tested last).
    const dee = randomUUID();
    const eve = randomUUID();
    await h.register(dee, 'dee', 'Dee Diaz');
    await h.register(eve, 'eve', 'Eve Eng');
    try {
      const first = await check(dee);
      await check(eve);
      await check(dee, 7);
      expect(ranked).toBe(1);

      // A like and a bookmark after the snapshot: the page shows them, and today's count.
      const target = first.find((i) => i.type === 'timeline')!;
      h.override(target.id, true);
      await h.call('post', `/api/timelines/${target.id}/like`, { userId: eve }).expect(200);
      await h.call('post', `/api/timelines/${target.id}/bookmark`, { userId: eve }).expect(200);
      const liked = (await check(eve)).find((i) => i.id === target.id)!;
      expect(liked.timeline).toMatchObject({ isLiked: true, liked: true, isBookmarked: true, likesCount: target.timeline!.likesCount + 1 });
      expect(ranked).toBe(1);

      // Reported by the caller, or no longer public: left out, and the page is still full.
      const reported = first.find((i) => i.type === 'post')!;
      await h.call('post', '/api/reports', { userId: eve }).send({ contentType: 'post', contentId: reported.id, reason: 'spam' }).expect(201);
      const hidden = first.filter((i) => i.type === 'timeline' && i.id !== target.id)[0]!;
      await h.query(`UPDATE feed_timelines SET visibility = 'private' WHERE id = $1`, [hidden.id]);
      const after = await check(eve);
      expect(after.map((i) => i.id)).not.toContain(reported.id);
      expect(after.map((i) => i.id)).not.toContain(hidden.id);
      expect(after).toHaveLength(20);
      expect(ranked).toBe(1);

      // An item edited since the snapshot: the page comes from the database, with the new text.
      const edited = first.find((i) => i.type === 'post' && i.id !== reported.id)!;
      await h.call('put', `/api/posts/${edited.id}`, { userId: edited.post!.userId }).send({ content: 'edited after the snapshot' }).expect(200);
      expect((await check(dee)).find((i) => i.id === edited.id)?.post?.content).toBe('edited after the snapshot');
      expect(ranked).toBe(2);

      // A post written here retakes the snapshot before the next page; its author's own next
      // page comes from the database, where their new post is (their item changed a moment ago).
      const written = await post(dee, 'written after the snapshot');
      ranked = 0;
      await check(eve);
      expect(ranked).toBe(1);
      await check(dee);
      expect(ranked).toBe(2);
      expect((await repo.forYou(dee, { readAt: new Date().toISOString() }, 1000)).map((s) => s.id)).toContain(written);
    } finally {
      snapshots.close();
      await h.query(`UPDATE feed_timelines SET visibility = 'public' WHERE visibility = 'private' AND title LIKE 'public %'`);
    }
  });

  it('refuses bad input and anonymous callers', async () => {
    await h.call('get', '/api/feed').expect(401);
    for (const query of ['?tab=popular', '?limit=0', '?limit=51', '?limit=x', '?cursor=nope', '?unknown=1', '?tab=following&cursor=' + encodeCursor(['x', 1])]) {
      await h.call('get', `/api/feed${query}`, { userId: bo }).expect(400);
    }
    const old = new Date(Date.now() - 7 * 3_600_000).toISOString().slice(0, 23) + '000Z';
    const expired = await h.call('get', `/api/feed?cursor=${encodeCursor([old, 1, old, randomUUID()])}`, { userId: bo }).expect(400);
    expect(expired.body.message).toBe('This feed has moved on; reload it to see the latest');
  });
});
