import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { encodeCursor } from '@timeliner/platform';
import { type SocialHarness, startHarness } from './harness.js';

interface Item { type: 'post' | 'timeline'; id: string; post?: { likesCount: number; liked: boolean; user: { displayName: string } }; timeline?: { title: string; likesCount: number; isLiked: boolean; creator: { displayName: string } } }

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

  it('leaves out what the caller reported, for them only', async () => {
    const victim = timelines['public 0']!;
    h.override(victim, true);
    await h.call('post', '/api/reports', { userId: bo }).send({ contentType: 'timeline', contentId: victim, reason: 'spam' }).expect(201);
    expect((await readAll(bo, 'for-you', 50)).seen.map((i) => i.id)).not.toContain(victim);
    expect((await readAll(cy, 'for-you', 50)).seen.map((i) => i.id)).toContain(victim);
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
