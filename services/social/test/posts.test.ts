import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { CommentAddedSchema, PostCreatedSchema, ReactionChangedSchema, ReportFiledSchema, TargetType } from '@timeliner/proto';
import { type SocialHarness, startHarness, type World } from './harness.js';

describe('posts, their comments, likes and bookmarks, and reports', () => {
  let h: SocialHarness;
  let w: World;
  let author: string;
  let reader: string;
  beforeAll(async () => {
    h = await startHarness('socialposts');
    w = h.world;
    author = randomUUID();
    reader = randomUUID();
    await h.register(author, 'ana', 'Ana Lima');
    await h.register(reader, 'bo', 'Bo Berg');
  });
  afterAll(async () => {
    await h.close();
  });

  const newPost = async (content = 'Cutting the #Lisbon trip with @bo') => (await h.call('post', '/api/posts', { userId: author }).send({ content }).expect(201)).body as { id: string };
  const outbox = async <T>(type: string, schema: Parameters<typeof fromBinary>[0]) =>
    (await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = $1 ORDER BY position`, [type])).map((row) => fromBinary(schema, row.payload) as T);
  const postRow = async (id: string) =>
    (await h.query<{ likes_count: number; comments_count: number; bookmarks_count: number; likes: number; bookmarks: number; score_band: number }>(
      `SELECT likes_count, comments_count, bookmarks_count, score_band,
              (SELECT count(*)::int FROM post_likes WHERE post_id = $1) AS likes,
              (SELECT count(*)::int FROM post_bookmarks WHERE post_id = $1) AS bookmarks
         FROM posts WHERE id = $1`,
      [id],
    ))[0];

  it('creates a trimmed post with its tags, mentions and author, and announces it', async () => {
    const res = await h.call('post', '/api/posts', { userId: author }).send({ content: '  Cutting the #Lisbon trip with @Bo  ' }).expect(201);
    expect(res.body).toMatchObject({
      userId: author,
      content: 'Cutting the #Lisbon trip with @Bo',
      hashtags: ['lisbon'],
      mentions: ['bo'],
      likesCount: 0,
      commentsCount: 0,
      liked: false,
      isLiked: false,
      bookmarked: false,
      isBookmarked: false,
      edited: false,
      user: { id: author, displayName: 'Ana Lima', username: 'ana', avatar: null },
    });
    const created = (await outbox<{ postId: string; hashtags: string[]; mentions: string[] }>('social.post.created', PostCreatedSchema)).find((e) => e.postId === res.body.id);
    expect(created).toMatchObject({ hashtags: ['lisbon'], mentions: ['bo'] });
    const listed = await h.call('get', '/api/posts', { userId: reader }).expect(200);
    expect(listed.body[0]).toMatchObject({ id: res.body.id, user: { displayName: 'Ana Lima' } });
  });

  it("refuses blank, too long, non-text and unknown input with the spec's words, storing nothing", async () => {
    const before = (await h.query<{ n: number }>('SELECT count(*)::int AS n FROM posts'))[0]!.n;
    for (const body of [{ content: '   ' }, {}, { content: null }]) {
      const res = await h.call('post', '/api/posts', { userId: author }).send(body).expect(400);
      expect(JSON.stringify(res.body.message)).toContain('Please enter something to share');
    }
    const long = await h.call('post', '/api/posts', { userId: author }).send({ content: 'x'.repeat(5001) }).expect(400);
    expect(JSON.stringify(long.body.message)).toContain('A post may be at most 5000 characters');
    await h.call('post', '/api/posts', { userId: author }).send({ content: 42 }).expect(400);
    await h.call('post', '/api/posts', { userId: author }).send({ content: 'hi', userId: reader }).expect(400);
    await h.call('post', '/api/posts').send({ content: 'hi' }).expect(401);
    expect((await h.query<{ n: number }>('SELECT count(*)::int AS n FROM posts'))[0]!.n).toBe(before);
  });

  it('lets only the author edit or delete, and marks an edited post', async () => {
    const post = await newPost();
    await h.call('put', `/api/posts/${post.id}`, { userId: reader }).send({ content: 'mine now' }).expect(403);
    await h.call('delete', `/api/posts/${post.id}`, { userId: reader }).expect(403);
    await h.call('put', `/api/posts/${post.id}`, { userId: author }).send({ content: '   ' }).expect(400);
    const edited = await h.call('put', `/api/posts/${post.id}`, { userId: author }).send({ content: 'Now #Porto too' }).expect(200);
    expect(edited.body).toMatchObject({ content: 'Now #Porto too', hashtags: ['porto'], mentions: [], edited: true });
    await h.call('post', `/api/posts/${post.id}/like`, { userId: reader }).expect(200);
    await h.call('post', `/api/posts/${post.id}/comments`, { userId: reader }).send({ content: 'Nice' }).expect(201);
    await h.call('delete', `/api/posts/${post.id}`, { userId: author }).expect(204);
    await h.call('get', `/api/posts/${post.id}`, { userId: author }).expect(404);
    await h.call('put', `/api/posts/${post.id}`, { userId: author }).send({ content: 'back' }).expect(404);
    await h.call('post', `/api/posts/${post.id}/like`, { userId: reader }).expect(404);
    await h.call('get', '/api/posts/not-a-uuid').expect(404);
    expect(await h.query('SELECT 1 FROM post_likes WHERE post_id = $1 UNION ALL SELECT 1 FROM post_comments WHERE post_id = $1', [post.id])).toEqual([]);
  });

  it('toggles likes and bookmarks idempotently, answering liked and isLiked, bookmarked and isBookmarked', async () => {
    const post = await newPost();
    const like = `/api/posts/${post.id}/like`;
    expect((await h.call('post', like, { userId: reader }).expect(200)).body).toEqual({ liked: true, isLiked: true, likesCount: 1 });
    expect((await h.call('post', like, { userId: reader }).expect(200)).body).toEqual({ liked: true, isLiked: true, likesCount: 1 });
    expect((await h.call('get', `/api/posts/${post.id}/liked`, { userId: reader }).expect(200)).body).toEqual({ liked: true, isLiked: true, likesCount: 1 });
    expect((await h.call('get', `/api/posts/${post.id}/liked`).expect(200)).body).toEqual({ liked: false, isLiked: false, likesCount: 1 });
    expect((await h.call('delete', like, { userId: reader }).expect(200)).body).toEqual({ liked: false, isLiked: false, likesCount: 0 });
    expect((await h.call('delete', like, { userId: reader }).expect(200)).body).toEqual({ liked: false, isLiked: false, likesCount: 0 });
    expect((await h.call('post', `/api/posts/${post.id}/bookmark`, { userId: reader }).expect(200)).body).toEqual({ bookmarked: true, isBookmarked: true });
    expect((await h.call('get', `/api/posts/${post.id}/bookmarked`, { userId: reader }).expect(200)).body).toEqual({ bookmarked: true, isBookmarked: true });
    expect((await h.call('get', `/api/posts/${post.id}`, { userId: reader }).expect(200)).body).toMatchObject({ liked: false, bookmarked: true, isBookmarked: true });
    const events = (await outbox<{ targetId: string; targetType: TargetType; active: boolean; count: bigint; ownerId: string }>('social.reaction.changed', ReactionChangedSchema)).filter((e) => e.targetId === post.id);
    expect(events.map((e) => [e.active, Number(e.count)])).toEqual([[true, 1], [false, 0], [true, 1]]);
    expect(events.every((e) => e.targetType === TargetType.POST && e.ownerId === author)).toBe(true);
  });

  it('keeps the count equal to the rows under 50 concurrent like/unlike pairs', async () => {
    const post = await newPost();
    const people = Array.from({ length: 10 }, () => randomUUID());
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const as = { userId: people[i % people.length]! };
        return Promise.all([h.call('post', `/api/posts/${post.id}/like`, as).expect(200), h.call('delete', `/api/posts/${post.id}/like`, as).expect(200), h.call('post', `/api/posts/${post.id}/like`, as).expect(200)]);
      }),
    );
    const row = (await postRow(post.id))!;
    expect(row.likes_count).toBe(row.likes);
    expect(row.likes_count).toBeGreaterThanOrEqual(0);
    expect(row.likes_count).toBeLessThanOrEqual(people.length);
  }, 30_000);

  it('adds comments oldest first with their authors, counting them and raising the score', async () => {
    const post = await newPost();
    const bandBefore = (await postRow(post.id))!.score_band;
    await h.call('post', `/api/posts/${post.id}/comments`, { userId: reader }).send({ content: '  ' }).expect(400);
    const first = await h.call('post', `/api/posts/${post.id}/comments`, { userId: reader }).send({ content: '  Lovely, @ana  ' }).expect(201);
    expect(first.body).toMatchObject({ postId: post.id, content: 'Lovely, @ana', user: { id: reader, displayName: 'Bo Berg', username: 'bo' } });
    await h.call('post', `/api/posts/${post.id}/comments`, { userId: author }).send({ content: 'Thanks!' }).expect(201);
    const list = await h.call('get', `/api/posts/${post.id}/comments?limit=1`).expect(200);
    expect(list.body.map((c: { content: string }) => c.content)).toEqual(['Lovely, @ana']);
    const rest = await h.call('get', `/api/posts/${post.id}/comments?cursor=${list.headers['x-next-cursor']}`).expect(200);
    expect(rest.body.map((c: { content: string }) => c.content)).toEqual(['Thanks!']);
    expect((await h.call('get', `/api/posts/${post.id}`).expect(200)).body.commentsCount).toBe(2);
    expect((await postRow(post.id))!.score_band).toBeGreaterThan(bandBefore);
    const added = (await outbox<{ targetId: string; mentions: string[]; ownerId: string; count: bigint }>('social.comment.added', CommentAddedSchema)).filter((e) => e.targetId === post.id);
    expect(added.map((e) => [e.mentions, e.ownerId, Number(e.count)])).toEqual([[['ana'], author, 1], [[], author, 2]]);
  });

  it('announces a mention as the whole username: @ana.lima names ana.lima, never ana; hostile ones name nobody', async () => {
    await h.register(randomUUID(), 'ana.lima', 'Ana Other');
    const post = await newPost('Shot by @ana.lima (@bo), write ana@example.com, not @@ana or @anaé.');
    const created = (await outbox<{ postId: string; mentions: string[] }>('social.post.created', PostCreatedSchema)).find((e) => e.postId === post.id);
    expect(created?.mentions).toEqual(['ana.lima', 'bo']);
    await h.call('post', `/api/posts/${post.id}/comments`, { userId: reader }).send({ content: 'Thanks @ana.lima.' }).expect(201);
    const added = (await outbox<{ targetId: string; mentions: string[] }>('social.comment.added', CommentAddedSchema)).filter((e) => e.targetId === post.id);
    expect(added.map((e) => e.mentions)).toEqual([['ana.lima']]);
  });

  it('files a report once per person and item: 201, then 200 with the same report', async () => {
    const post = await newPost();
    const body = { contentType: 'post', contentId: post.id, reason: 'spam', description: ' buy followers ' };
    const first = await h.call('post', '/api/reports', { userId: reader }).send(body).expect(201);
    expect(first.body).toMatchObject({ contentType: 'post', contentId: post.id, reason: 'spam', description: 'buy followers', status: 'pending' });
    const again = await h.call('post', '/api/reports', { userId: reader }).send({ ...body, reason: 'other' }).expect(200);
    expect(again.body).toEqual(first.body);
    expect((await h.query('SELECT 1 FROM content_reports WHERE content_id = $1', [post.id])).length).toBe(1);
    const filed = (await outbox<{ contentId: string }>('social.report.filed', ReportFiledSchema)).filter((e) => e.contentId === post.id);
    expect(filed).toHaveLength(1);
  });

  it('refuses reports of what does not exist or cannot be seen, and bad input', async () => {
    await h.call('post', '/api/reports', { userId: reader }).send({ contentType: 'post', contentId: randomUUID(), reason: 'spam' }).expect(404);
    await h.call('post', '/api/reports', { userId: w.stranger }).send({ contentType: 'timeline', contentId: w.privateTimeline, reason: 'spam' }).expect(404);
    await h.call('post', '/api/reports', { userId: w.stranger }).send({ contentType: 'timeline', contentId: w.publicTimeline, reason: 'hate' }).expect(201);
    for (const body of [
      { contentType: 'user', contentId: randomUUID(), reason: 'spam' },
      { contentType: 'post', contentId: 'nope', reason: 'spam' },
      { contentType: 'post', contentId: randomUUID(), reason: 'boring' },
      { contentType: 'post', contentId: randomUUID(), reason: 'spam', description: 'x'.repeat(1001) },
      { contentType: 'post', contentId: randomUUID(), reason: 'spam', extra: 1 },
    ]) {
      await h.call('post', '/api/reports', { userId: reader }).send(body).expect(400);
    }
    await h.call('post', '/api/reports').send({ contentType: 'timeline', contentId: w.publicTimeline, reason: 'spam' }).expect(401);
  });
});
