import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { AuthEvents, CommentAddedSchema, CommentDeletedSchema, MediaEvents, MediaType, Reaction, ReactionChangedSchema, TargetType, TimelinesEvents } from '@timeliner/proto';
import { type SocialHarness, startHarness, waitFor, type World } from './harness.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('video likes and comments', () => {
  let h: SocialHarness;
  let w: World;
  let privateVideo: string;
  beforeAll(async () => {
    h = await startHarness('socialvideos');
    w = h.world;
    await h.register(w.owner, 'olivia', 'Olivia Owner');
    await h.register(w.collaborator, 'cleo', 'Cleo Collaborator');
    await h.register(w.stranger, 'sam', 'Sam Stranger');
    privateVideo = await h.addVideo(w.privateTimeline);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.setTimelines('answer');
  });

  const applied = async (eventId: string) => waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1);
  const outbox = async <T>(type: string, decode: (payload: Buffer) => T) =>
    (await h.query<{ payload: Buffer }>('SELECT payload FROM outbox WHERE type = $1 ORDER BY position', [type])).map((r) => decode(r.payload));
  const reactions = () => outbox('social.reaction.changed', (p) => fromBinary(ReactionChangedSchema, p));
  const added = () => outbox('social.comment.added', (p) => fromBinary(CommentAddedSchema, p));
  const deleted = () => outbox('social.comment.deleted', (p) => fromBinary(CommentDeletedSchema, p));
  const video = async (id: string) =>
    (await h.query<{ likes_count: number; comments_count: number; deleted: boolean; timeline_id: string }>(
      'SELECT likes_count, comments_count, deleted, timeline_id FROM videos WHERE id = $1', [id],
    ))[0];
  const snapshot = async () => JSON.stringify(await h.query(`SELECT
      (SELECT md5(coalesce(string_agg(c::text, '' ORDER BY id), '')) FROM video_comments c) AS comments,
      (SELECT md5(coalesce(string_agg(l::text, '' ORDER BY video_id, user_id), '')) FROM video_likes l) AS likes,
      (SELECT md5(coalesce(string_agg(v::text, '' ORDER BY id), '')) FROM videos v) AS videos,
      (SELECT count(*) FROM outbox) AS events`));
  const comments = (id: string) => `/api/videos/${id}/comments`;
  const comment = (videoId: string, userId: string, body: Record<string, unknown>) => h.call('post', comments(videoId), { userId }).send(body);
  const reply = (videoId: string, commentId: string, userId: string, body: Record<string, unknown>) =>
    h.call('post', `${comments(videoId)}/${commentId}/replies`, { userId }).send(body);

  describe('the read model', () => {
    it('knows uploaded videos once, knows images only to be reported, and keeps a deleted video deleted', async () => {
      const id = randomUUID();
      const first = await h.publish(MediaEvents.UploadCompleted, { mediaId: id, timelineId: w.publicTimeline, mediaType: MediaType.VIDEO });
      await applied(first);
      await applied(await h.publish(MediaEvents.UploadCompleted, { mediaId: id, timelineId: w.privateTimeline, mediaType: MediaType.VIDEO }));
      expect(await video(id)).toEqual({ likes_count: 0, comments_count: 0, deleted: false, timeline_id: w.publicTimeline });
      const image = randomUUID();
      await applied(await h.publish(MediaEvents.UploadCompleted, { mediaId: image, timelineId: w.publicTimeline, mediaType: MediaType.IMAGE }));
      const kind = async (id: string) => (await h.query<{ media_type: string; deleted: boolean }>('SELECT media_type, deleted FROM videos WHERE id = $1', [id]))[0];
      expect(await kind(image)).toEqual({ media_type: 'image', deleted: false });
      expect(await kind(id)).toEqual({ media_type: 'video', deleted: false });
      // An image has no likes or comments (a report of it: sensitive-posts-reported-media.test.ts).
      expect((await h.call('post', `/api/videos/${image}/like`, { userId: w.stranger }).expect(404)).body.message).toBe('Video not found');
      await comment(image, w.stranger, { content: 'hi' }).expect(404);
      await applied(await h.publish(MediaEvents.MediaDeleted, { mediaId: image, timelineId: w.publicTimeline, mediaType: MediaType.IMAGE }));
      expect(await kind(image)).toEqual({ media_type: 'image', deleted: true });

      await h.call('post', `/api/videos/${id}/like`, { userId: w.stranger }).expect(200);
      await comment(id, w.stranger, { content: 'bye' }).expect(201);
      await applied(await h.publish(MediaEvents.MediaDeleted, { mediaId: id, timelineId: w.publicTimeline, mediaType: MediaType.VIDEO }));
      expect(await video(id)).toMatchObject({ deleted: true, likes_count: 0, comments_count: 0 });
      expect(await h.query('SELECT 1 FROM video_likes WHERE video_id = $1 UNION ALL SELECT 1 FROM video_comments WHERE video_id = $1', [id])).toEqual([]);
      await applied(await h.publish(MediaEvents.UploadCompleted, { mediaId: id, timelineId: w.publicTimeline, mediaType: MediaType.VIDEO }));
      expect(await video(id)).toMatchObject({ deleted: true });
      const res = await h.call('get', `/api/videos/${id}/liked`, { userId: w.owner }).expect(404);
      expect(res.body.message).toBe('Video not found');

      // Deleted before its upload was announced: stays deleted.
      const late = randomUUID();
      await applied(await h.publish(MediaEvents.MediaDeleted, { mediaId: late, timelineId: w.publicTimeline, mediaType: MediaType.VIDEO }));
      await applied(await h.publish(MediaEvents.UploadCompleted, { mediaId: late, timelineId: w.publicTimeline, mediaType: MediaType.VIDEO }));
      expect(await video(late)).toMatchObject({ deleted: true });
    });

    it('marks a deleted timeline\'s videos deleted and forgets their likes and comments', async () => {
      const timelineId = randomUUID();
      h.override(timelineId, true);
      const [a, b] = [await h.addVideo(timelineId), await h.addVideo(timelineId)];
      await h.call('post', `/api/videos/${a}/like`, { userId: w.stranger }).expect(200);
      await comment(b, w.stranger, { content: 'soon gone' }).expect(201);
      await applied(await h.publish(TimelinesEvents.TimelineDeleted, { timelineId, creatorId: w.owner }));
      expect(await video(a)).toMatchObject({ deleted: true });
      expect(await video(b)).toMatchObject({ deleted: true });
      expect(await h.query('SELECT 1 FROM video_likes WHERE video_id = ANY($1) UNION ALL SELECT 1 FROM video_comments WHERE video_id = ANY($1)', [[a, b]])).toEqual([]);
    });
  });

  describe('likes', () => {
    it('answers {isLiked, liked, likesCount}, idempotently, announcing real changes only', async () => {
      const id = await h.addVideo(w.publicTimeline);
      expect((await h.call('get', `/api/videos/${id}/liked`).expect(200)).body).toEqual({ isLiked: false, liked: false, likesCount: 0 });
      expect((await h.call('post', `/api/videos/${id}/like`, { userId: w.stranger }).expect(200)).body).toEqual({ isLiked: true, liked: true, likesCount: 1 });
      expect((await h.call('post', `/api/videos/${id}/like`, { userId: w.stranger }).expect(200)).body).toEqual({ isLiked: true, liked: true, likesCount: 1 });
      expect((await h.call('get', `/api/videos/${id.toUpperCase()}/liked`, { userId: w.stranger }).expect(200)).body).toEqual({ isLiked: true, liked: true, likesCount: 1 });
      expect((await h.call('delete', `/api/videos/${id}/like`, { userId: w.stranger }).expect(200)).body).toEqual({ isLiked: false, liked: false, likesCount: 0 });
      expect((await h.call('delete', `/api/videos/${id}/like`, { userId: w.stranger }).expect(200)).body).toEqual({ isLiked: false, liked: false, likesCount: 0 });
      const sent = (await reactions()).filter((e) => e.targetId === id);
      expect(sent.map((e) => [e.active, Number(e.count)])).toEqual([[true, 1], [false, 0]]);
      for (const e of sent) expect(e).toMatchObject({ targetType: TargetType.VIDEO, timelineId: w.publicTimeline, ownerId: w.owner, userId: w.stranger, reaction: Reaction.LIKE });
      expect(sent[0]!.countVersion < sent[1]!.countVersion).toBe(true);
    });

    it('stays exact under 50 concurrent like/unlike pairs', async () => {
      const id = await h.addVideo(w.publicTimeline);
      const people = Array.from({ length: 50 }, () => randomUUID());
      await Promise.all(people.flatMap((userId) => [
        h.call('post', `/api/videos/${id}/like`, { userId }).then((r) => expect(r.status).toBe(200)),
        h.call('delete', `/api/videos/${id}/like`, { userId }).then((r) => expect(r.status).toBe(200)),
      ]));
      const rows = Number((await h.query<{ n: string }>('SELECT count(*) AS n FROM video_likes WHERE video_id = $1', [id]))[0]!.n);
      expect((await video(id))!.likes_count).toBe(rows);
      const sent = (await reactions()).filter((e) => e.targetId === id).sort((x, y) => (x.countVersion < y.countVersion ? -1 : 1));
      let count = 0;
      for (const e of sent) {
        count += e.active ? 1 : -1;
        expect(Number(e.count)).toBe(count);
      }
      expect(count).toBe(rows);
    });

    it('hides a video the caller may not see, unknown or malformed: 404 Video not found; 401 first for writes', async () => {
      for (const [method, suffix] of [['get', 'liked'], ['post', 'like'], ['delete', 'like']] as const) {
        for (const id of [privateVideo, randomUUID(), 'not-a-uuid']) {
          const res = await h.call(method, `/api/videos/${id}/${suffix}`, { userId: w.stranger }).expect(404);
          expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Video not found' });
        }
        if (method !== 'get') await h.call(method, `/api/videos/${privateVideo}/${suffix}`).expect(401);
      }
      expect((await h.call('post', `/api/videos/${privateVideo}/like`, { userId: w.collaborator }).expect(200)).body.likesCount).toBe(1);
      await h.call('delete', `/api/videos/${privateVideo}/like`, { userId: w.collaborator }).expect(200);
    });
  });

  describe('comments and replies', () => {
    it('writes a comment in the spec shape, on the timeline the read model knows, and announces it', async () => {
      const id = await h.addVideo(w.publicTimeline);
      const res = await comment(id, w.stranger, { content: '  Where is this?  ', timelineId: w.publicTimeline.toUpperCase() }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        videoId: id,
        timelineId: w.publicTimeline,
        parentId: null,
        content: 'Where is this?',
        userId: w.stranger,
        userName: 'Sam Stranger',
        createdAt: expect.stringMatching(ISO),
        user: { id: w.stranger, displayName: 'Sam Stranger', username: 'sam', avatar: null },
        replies: [],
        repliesCount: 0,
        repliesCursor: null,
        likesCount: 0,
        held: false,
        pinned: false,
      });
      expect(await video(id)).toMatchObject({ comments_count: 1 });
      const event = (await added()).find((e) => e.commentId === res.body.id)!;
      expect(event).toMatchObject({ targetType: TargetType.VIDEO, targetId: id, timelineId: w.publicTimeline, ownerId: w.owner, userId: w.stranger, parentCommentId: '', content: 'Where is this?', count: 1n });
      // Without timelineId it is the video's timeline all the same.
      const lisbon = await comment(id, w.collaborator, { content: 'Lisbon, says @Sam' }).expect(201);
      expect(lisbon.body.timelineId).toBe(w.publicTimeline);
      // The people it names travel with it (the notifications service tells them).
      expect((await added()).find((e) => e.commentId === lisbon.body.id)).toMatchObject({ mentions: ['sam'] });
    });

    it('refuses a timelineId other than the video\'s, and bad content, changing nothing', async () => {
      const id = await h.addVideo(w.publicTimeline);
      const before = await snapshot();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ content: 'hi', timelineId: w.privateTimeline }, "timelineId must be the video's timeline"],
        [{ content: 'hi', timelineId: 'nonsense' }, "timelineId must be the video's timeline"],
        [{ content: 'hi', timelineId: 7 }, 'timelineId must be a string'],
        [{}, 'Comment cannot be empty'],
        [{ content: ' \n\t ' }, 'Comment cannot be empty'],
        [{ content: null }, 'Comment cannot be empty'],
        [{ content: 5 }, 'Comment must be text'],
        [{ content: 'x'.repeat(2001) }, 'Comment must be at most 2000 characters'],
        [{ content: 'hi', parentId: randomUUID() }, 'Unknown field: parentId'],
      ];
      for (const [body, message] of cases) {
        const res = await comment(id, w.stranger, body).expect(400);
        expect(res.body.message).toBe(message);
      }
      expect(await snapshot()).toBe(before);
      expect((await comment(id, w.stranger, { content: 'x'.repeat(2000) }).expect(201)).body.content).toHaveLength(2000);
    });

    it('lists top-level comments oldest first, each with its replies oldest first; a reply to a reply joins the thread', async () => {
      const id = await h.addVideo(w.publicTimeline);
      const first = (await comment(id, w.owner, { content: 'first' }).expect(201)).body;
      const second = (await comment(id, w.stranger, { content: 'second' }).expect(201)).body;
      const r1 = (await reply(id, first.id, w.stranger, { content: ' reply one ' }).expect(201)).body;
      expect(r1).toMatchObject({ parentId: first.id, content: 'reply one', timelineId: w.publicTimeline, replies: [], repliesCount: 0 });
      const r2 = (await reply(id, r1.id, w.collaborator, { content: 'reply to a reply' }).expect(201)).body;
      expect(r2.parentId).toBe(first.id);

      const list = (await h.call('get', comments(id)).expect(200)).body;
      expect(list.map((c: { content: string }) => c.content)).toEqual(['first', 'second']);
      expect(list[0].repliesCount).toBe(2);
      expect(list[0].replies.map((c: { id: string }) => c.id)).toEqual([r1.id, r2.id]);
      expect(list[0].replies[1].user).toEqual({ id: w.collaborator, displayName: 'Cleo Collaborator', username: 'cleo', avatar: null });
      expect(list[1]).toMatchObject({ id: second.id, replies: [], repliesCount: 0 });
      expect(await video(id)).toMatchObject({ comments_count: 4 });

      const events = (await added()).filter((e) => e.targetId === id);
      expect(events.map((e) => [e.parentCommentId, e.parentAuthorId, Number(e.count)])).toEqual([
        ['', '', 1], ['', '', 2], [first.id, w.owner, 3], [first.id, w.owner, 4],
      ]);

      // Pages count top-level comments.
      const page = await h.call('get', `${comments(id)}?limit=1`).expect(200);
      expect(page.body.map((c: { id: string }) => c.id)).toEqual([first.id]);
      expect(page.body[0].replies).toHaveLength(2);
      const next = await h.call('get', `${comments(id)}?limit=1&cursor=${page.headers['x-next-cursor']}`).expect(200);
      expect(next.body.map((c: { id: string }) => c.id)).toEqual([second.id]);
      expect(next.headers['x-next-cursor']).toBeUndefined();
    });

    it('answers a page of replies per comment with a cursor for the rest: 268 replies, limit=1 stays small', async () => {
      const id = await h.addVideo(w.publicTimeline);
      const top = (await comment(id, w.owner, { content: 'a busy thread' }).expect(201)).body;
      const quiet = (await comment(id, w.stranger, { content: 'a quiet one' }).expect(201)).body;
      // 268 long replies, as in the review (written straight to the table: the route is tested above).
      await h.query(
        `INSERT INTO video_comments (id, video_id, timeline_id, parent_id, user_id, user_name, content, created_at)
         SELECT gen_random_uuid(), $1, $2, $3, $4, 'Sam Stranger', n || ' ' || repeat('x', 1400), now() + n * interval '1 ms' FROM generate_series(1, 268) AS n`,
        [id, w.publicTimeline, top.id, w.stranger],
      );
      await h.query('UPDATE video_comments SET replies_count = 268 WHERE id = $1', [top.id]);

      const page = await h.call('get', `${comments(id)}?limit=1`).expect(200);
      const bytes = Buffer.byteLength(page.text);
      console.log(`limit=1 with 268 replies: ${bytes} bytes`);
      expect(bytes).toBeLessThan(10_000);
      const [first] = page.body as Array<{ id: string; replies: Array<{ content: string }>; repliesCount: number; repliesCursor: string | null }>;
      expect(first).toMatchObject({ id: top.id, repliesCount: 268 });
      expect(first!.replies.map((r) => r.content.split(' ')[0])).toEqual(['1', '2', '3']);
      expect(first!.repliesCursor).toEqual(expect.any(String));
      const rest = await h.call('get', `${comments(id)}?cursor=${page.headers['x-next-cursor']}`).expect(200);
      expect(rest.body).toEqual([expect.objectContaining({ id: quiet.id, replies: [], repliesCount: 0, repliesCursor: null })]);

      // The replies route pages the rest, from the list's cursor, to the end.
      const seen: string[] = first!.replies.map((r) => r.content.split(' ')[0]!);
      let cursor: string | undefined = first!.repliesCursor!;
      let pages = 0;
      while (cursor) {
        const next: { body: unknown; headers: Record<string, string | undefined> } = await h.call('get', `${comments(id)}/${top.id}/replies?limit=100&cursor=${cursor}`).expect(200);
        seen.push(...(next.body as Array<{ content: string; parentId: string; replies: unknown[] }>).map((r) => r.content.split(' ')[0]!));
        cursor = next.headers['x-next-cursor'];
        pages += 1;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(Array.from({ length: 268 }, (_, i) => String(i + 1)));
      const firstPage = await h.call('get', `${comments(id)}/${top.id}/replies?limit=2`).expect(200);
      expect(firstPage.body.map((r: { content: string }) => r.content.split(' ')[0])).toEqual(['1', '2']);

      // Bad input: a clear 4xx; a reply, another video's comment or an unknown one is not found.
      expect((await h.call('get', `${comments(id)}/${top.id}/replies?cursor=garbage`).expect(400)).body.message).toBe('Invalid cursor');
      await h.call('get', `${comments(id)}/${top.id}/replies?limit=0`).expect(400);
      const aReply = (await h.query<{ id: string }>('SELECT id FROM video_comments WHERE parent_id = $1 LIMIT 1', [top.id]))[0]!.id;
      const other = await h.addVideo(w.publicTimeline);
      for (const path of [`${comments(id)}/${aReply}/replies`, `${comments(other)}/${top.id}/replies`, `${comments(id)}/${randomUUID()}/replies`, `${comments(id)}/nope/replies`]) {
        expect((await h.call('get', path).expect(404)).body.message).toBe('Comment not found');
      }
      // A video the caller may not see: as absent as its comments.
      const secret = await h.addVideo(w.privateTimeline);
      const hidden = (await comment(secret, w.collaborator, { content: 'private thread' }).expect(201)).body;
      expect((await h.call('get', `${comments(secret)}/${hidden.id}/replies`, { userId: w.stranger }).expect(404)).body.message).toBe('Video not found');
      await h.call('get', `${comments(secret)}/${hidden.id}/replies`, { userId: w.owner }).expect(200);
    });

    it('replies only to a comment of that video', async () => {
      const id = await h.addVideo(w.publicTimeline);
      const other = await h.addVideo(w.publicTimeline);
      const elsewhere = (await comment(other, w.stranger, { content: 'other video' }).expect(201)).body;
      const before = await snapshot();
      for (const commentId of [elsewhere.id, randomUUID(), 'nope']) {
        const res = await reply(id, commentId, w.stranger, { content: 'hi' }).expect(404);
        expect(res.body.message).toBe('Comment not found');
      }
      expect((await reply(id, elsewhere.id, w.stranger, { content: '' }).expect(400)).body.message).toBe('Comment cannot be empty');
      expect(await snapshot()).toBe(before);
    });

    it('lets authors delete their own (204, a top-level comment with its replies); others get 403', async () => {
      const id = await h.addVideo(w.publicTimeline);
      const top = (await comment(id, w.owner, { content: 'top' }).expect(201)).body;
      const mine = (await reply(id, top.id, w.stranger, { content: 'mine' }).expect(201)).body;
      await reply(id, top.id, w.collaborator, { content: 'theirs' }).expect(201);
      const before = await snapshot();
      const res = await h.call('delete', `${comments(id)}/${top.id}`, { userId: w.stranger }).expect(403);
      expect(res.body.message).toBe('You can only delete your own comments');
      await h.call('delete', `${comments(id)}/${mine.id}`).expect(401);
      await h.call('delete', `${comments(id)}/${randomUUID()}`, { userId: w.stranger }).expect(404);
      expect(await snapshot()).toBe(before);

      await h.call('delete', `${comments(id)}/${mine.id}`, { userId: w.stranger }).expect(204);
      let list = (await h.call('get', comments(id)).expect(200)).body;
      expect(list[0]).toMatchObject({ repliesCount: 1 });
      expect(list[0].replies).toHaveLength(1);
      expect(await video(id)).toMatchObject({ comments_count: 2 });

      await h.call('delete', `${comments(id)}/${top.id}`, { userId: w.owner }).expect(204);
      list = (await h.call('get', comments(id)).expect(200)).body;
      expect(list).toEqual([]);
      expect(await h.query('SELECT 1 FROM video_comments WHERE video_id = $1', [id])).toEqual([]);
      expect(await video(id)).toMatchObject({ comments_count: 0 });
      const gone = (await deleted()).filter((e) => e.targetId === id);
      expect(gone.map((e) => [e.commentId, e.parentCommentId, Number(e.count)])).toEqual([[mine.id, top.id, 2], [top.id, '', 0]]);
      expect(gone[0]!.countVersion < gone[1]!.countVersion).toBe(true);
      await h.call('delete', `${comments(id)}/${top.id}`, { userId: w.owner }).expect(404);
    });

    it('hides comments of a video the caller may not see: 404 Video not found', async () => {
      const top = (await comment(privateVideo, w.collaborator, { content: 'private' }).expect(201)).body;
      const before = await snapshot();
      for (const [method, path, body] of [
        ['get', comments(privateVideo), undefined],
        ['post', comments(privateVideo), { content: 'hi' }],
        ['post', `${comments(privateVideo)}/${top.id}/replies`, { content: 'hi' }],
        ['delete', `${comments(privateVideo)}/${top.id}`, undefined],
      ] as const) {
        const res = await h.call(method, path, { userId: w.stranger }).send(body);
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('Video not found');
      }
      expect(await snapshot()).toBe(before);
      expect((await h.call('get', comments(privateVideo), { userId: w.owner }).expect(200)).body).toHaveLength(1);
    });

    it('shows the author\'s new name after a rename', async () => {
      const id = await h.addVideo(w.publicTimeline);
      const person = randomUUID();
      await h.register(person, 'newbie', 'Nell Newbie');
      await comment(id, person, { content: 'hello' }).expect(201);
      const eventId = await h.publish(AuthEvents.UserUpdated, { userId: person, displayName: 'Nell Renamed' });
      await applied(eventId);
      expect(await h.query('SELECT user_name FROM video_comments WHERE user_id = $1', [person])).toEqual([{ user_name: 'Nell Renamed' }]);
      expect((await h.call('get', comments(id)).expect(200)).body[0].userName).toBe('Nell Renamed');
    });
  });
});
