import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { CommentAddedSchema, CommentApprovedSchema, CommentHeldSchema, TargetType } from '@timeliner/proto';
import { commentControlRoutes } from './comment-control-routes.js';
import { type SocialHarness, startHarness, type World } from './harness.js';

/**
 * Comment controls with the real Postgres and bus: who may comment, held comments and who sees
 * them, the approval queue, counts, deleting any comment and pinning one, for timeline, video and
 * post comments, and who may use each control.
 */
describe('comment controls', () => {
  let h: SocialHarness;
  let w: World;
  let follower: string;
  let newcomer: string;
  beforeAll(async () => {
    h = await startHarness('socialcommentcontrols');
    w = h.world;
    follower = randomUUID();
    newcomer = randomUUID();
    await h.register(w.owner, 'olivia', 'Olivia Owner');
    await h.register(w.collaborator, 'cleo', 'Cleo Collaborator');
    await h.register(w.stranger, 'sam', 'Sam Stranger');
    await h.register(follower, 'fred', 'Fred Follower');
    await h.register(newcomer, 'nina', 'Nina Newcomer');
    // Everyone but the newcomer registered long ago.
    await h.query(`UPDATE users SET registered_at = now() - interval '400 days' WHERE id <> $1`, [newcomer]);
    await h.call('post', `/api/users/${w.owner}/follow`, { userId: follower }).expect(200);
  }, 30_000);
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.setTimelines('answer');
  });

  const settings = (kind: 'timelines' | 'posts', id: string) => `/api/${kind}/${id}/comment-settings`;
  const setRules = (kind: 'timelines' | 'posts', id: string, userId: string, body: Record<string, unknown>) => h.call('put', settings(kind, id), { userId }).send(body);
  const commentOnTimeline = (timelineId: string, userId: string, content: string) => h.call('post', `/api/timelines/${timelineId}/comments`, { userId }).send({ content });
  const timelineComments = async (timelineId: string, userId?: string) =>
    (await h.call('get', `/api/timelines/${timelineId}/comments`, { userId }).expect(200)).body as Array<{ id: string; content: string; held: boolean; pinned: boolean }>;
  const outbox = async (type: string) => h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = $1 ORDER BY position`, [type]);
  const newPost = async (userId: string, content = 'A post') => (await h.call('post', '/api/posts', { userId }).send({ content }).expect(201)).body as { id: string };
  const open = { whoMayComment: 'everyone' };

  it('keeps when each account registered, from UserRegistered', async () => {
    const [row] = await h.query<{ registered_at: Date | null }>('SELECT registered_at FROM users WHERE id = $1', [newcomer]);
    expect(row!.registered_at).toBeInstanceOf(Date);
    expect(Date.now() - row!.registered_at!.getTime()).toBeLessThan(60_000);
  });

  describe('settings', () => {
    afterAll(async () => {
      await setRules('timelines', w.publicTimeline, w.owner, open).expect(200);
    });

    it('are open by default, and say so to anyone who sees the timeline, without the moderators\' lists', async () => {
      const res = await h.call('get', settings('timelines', w.publicTimeline), { userId: w.stranger }).expect(200);
      expect(res.body).toEqual({ whoMayComment: 'everyone', canComment: true, reason: null, canModerate: false, holdAll: null, heldWords: null, holdNewAccountsDays: null, heldCount: null });
      const anonymous = await h.call('get', settings('timelines', w.publicTimeline)).expect(200);
      expect(anonymous.body).toMatchObject({ canComment: false, reason: null, canModerate: false });
      await h.call('get', settings('timelines', w.privateTimeline), { userId: w.stranger }).expect(404);
    });

    it('are changed by the owner and editors only', async () => {
      // The collaborator only views the public timeline; a stranger is nobody there.
      for (const userId of [w.collaborator, w.stranger]) {
        const res = await setRules('timelines', w.publicTimeline, userId, { whoMayComment: 'nobody' }).expect(403);
        expect(res.body.message).toBe('Only the owner and editors of this timeline can moderate its comments');
      }
      await setRules('timelines', w.privateTimeline, w.stranger, { whoMayComment: 'nobody' }).expect(404);
      await h.call('put', settings('timelines', w.publicTimeline)).send({ whoMayComment: 'nobody' }).expect(401);
      // The collaborator edits the private timeline.
      const edited = await setRules('timelines', w.privateTimeline, w.collaborator, { whoMayComment: 'everyone', heldWords: [' Spoiler ', 'spoiler', 'UGLY'], holdNewAccountsDays: 3 }).expect(200);
      expect(edited.body).toEqual({ whoMayComment: 'everyone', canComment: true, reason: null, canModerate: true, holdAll: false, heldWords: ['spoiler', 'ugly'], holdNewAccountsDays: 3, heldCount: 0 });
      await setRules('timelines', w.privateTimeline, w.owner, open).expect(200);
    });

    it('refuse bad input with a 400 and change nothing', async () => {
      await setRules('timelines', w.publicTimeline, w.owner, { whoMayComment: 'friends' }).expect(400);
      await setRules('timelines', w.publicTimeline, w.owner, { whoMayComment: 'everyone', holdNewAccountsDays: 0 }).expect(400);
      await setRules('timelines', w.publicTimeline, w.owner, { whoMayComment: 'everyone', heldWords: 'spoiler' }).expect(400);
      await setRules('timelines', w.publicTimeline, w.owner, { whoMayComment: 'everyone', heldWords: ['x'.repeat(51)] }).expect(400);
      await setRules('timelines', w.publicTimeline, w.owner, { whoMayComment: 'everyone', extra: 1 }).expect(400);
      expect(await h.query(`SELECT 1 FROM comment_settings WHERE target_id = $1`, [w.publicTimeline])).toEqual([]);
    });
  });

  describe('who may comment', () => {
    afterAll(async () => {
      await setRules('timelines', w.publicTimeline, w.owner, open).expect(200);
    });

    it('nobody: everyone but the moderators is refused with the reason, on the timeline and its videos', async () => {
      const videoId = await h.addVideo(w.publicTimeline);
      await setRules('timelines', w.publicTimeline, w.owner, { whoMayComment: 'nobody' }).expect(200);
      const before = await h.query('SELECT id FROM timeline_comments');
      const refused = await commentOnTimeline(w.publicTimeline, w.stranger, 'Let me in').expect(403);
      expect(refused.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Comments are turned off for this' });
      await h.call('post', `/api/videos/${videoId}/comments`, { userId: follower }).send({ content: 'On the video' }).expect(403);
      expect(await h.query('SELECT id FROM timeline_comments')).toEqual(before);
      expect(await h.query('SELECT id FROM video_comments WHERE video_id = $1', [videoId])).toEqual([]);
      const told = await h.call('get', settings('timelines', w.publicTimeline), { userId: w.stranger }).expect(200);
      expect(told.body).toMatchObject({ whoMayComment: 'nobody', canComment: false, reason: 'Comments are turned off for this' });
      // The owner still comments, not held.
      const own = await commentOnTimeline(w.publicTimeline, w.owner, 'Closing comments').expect(201);
      expect(own.body.held).toBe(false);
    });

    it('followers: only people who follow the owner', async () => {
      await setRules('timelines', w.publicTimeline, w.owner, { whoMayComment: 'followers' }).expect(200);
      const refused = await commentOnTimeline(w.publicTimeline, w.stranger, 'Not a follower').expect(403);
      expect(refused.body.message).toBe('Only followers of the creator can comment on this');
      expect((await h.call('get', settings('timelines', w.publicTimeline), { userId: follower }).expect(200)).body).toMatchObject({ canComment: true, reason: null });
      await commentOnTimeline(w.publicTimeline, follower, 'I follow').expect(201);
    });

    it('applies to posts too, set by their author only', async () => {
      const post = await newPost(w.owner);
      await setRules('posts', post.id, w.stranger, { whoMayComment: 'nobody' }).expect(403);
      await setRules('posts', post.id, w.owner, { whoMayComment: 'nobody' }).expect(200);
      const refused = await h.call('post', `/api/posts/${post.id}/comments`, { userId: w.stranger }).send({ content: 'hi' }).expect(403);
      expect(refused.body.message).toBe('Comments are turned off for this');
      await h.call('post', `/api/posts/${post.id}/comments`, { userId: w.owner }).send({ content: 'mine' }).expect(201);
      await setRules('posts', randomUUID(), w.owner, open).expect(404);
    });
  });

  describe('held comments', () => {
    it('hold all: seen by the author and the moderators only, not counted or announced until approved', async () => {
      await setRules('timelines', w.publicTimeline, w.owner, { whoMayComment: 'everyone', holdAll: true }).expect(200);
      const heldBefore = (await outbox('social.comment.held')).length;
      const addedBefore = (await outbox('social.timeline_comment.added')).length;
      const held = await commentOnTimeline(w.publicTimeline, w.stranger, 'Please approve me').expect(201);
      expect(held.body).toMatchObject({ content: 'Please approve me', held: true, pinned: false });

      const ids = (list: Array<{ id: string }>) => list.map((c) => c.id);
      expect(ids(await timelineComments(w.publicTimeline, w.stranger))).toContain(held.body.id);
      expect((await timelineComments(w.publicTimeline, w.stranger)).find((c) => c.id === held.body.id)!.held).toBe(true);
      expect(ids(await timelineComments(w.publicTimeline, w.owner))).toContain(held.body.id);
      expect(ids(await timelineComments(w.publicTimeline))).not.toContain(held.body.id);
      expect(ids(await timelineComments(w.publicTimeline, follower))).not.toContain(held.body.id);
      // A viewer of the timeline is no moderator.
      expect(ids(await timelineComments(w.publicTimeline, w.collaborator))).not.toContain(held.body.id);

      expect((await outbox('social.timeline_comment.added')).length).toBe(addedBefore);
      const heldEvents = await outbox('social.comment.held');
      expect(heldEvents.length).toBe(heldBefore + 1);
      expect(fromBinary(CommentHeldSchema, heldEvents.at(-1)!.payload)).toMatchObject({ commentId: held.body.id, targetType: TargetType.TIMELINE, targetId: w.publicTimeline, ownerId: w.owner, userId: w.stranger, heldCount: 1n });

      // The queue and its count, for the moderators only.
      const queue = await h.call('get', `/api/timelines/${w.publicTimeline}/held-comments`, { userId: w.owner }).expect(200);
      expect(queue.body).toEqual([{ id: held.body.id, kind: 'timeline', targetId: w.publicTimeline, parentId: null, content: 'Please approve me', createdAt: held.body.createdAt, user: expect.objectContaining({ id: w.stranger }) }]);
      expect((await h.call('get', settings('timelines', w.publicTimeline), { userId: w.owner }).expect(200)).body.heldCount).toBe(1);
      await h.call('get', `/api/timelines/${w.publicTimeline}/held-comments`, { userId: w.collaborator }).expect(403);
      await h.call('get', `/api/timelines/${w.publicTimeline}/held-comments`, { userId: w.stranger }).expect(403);
      await h.call('post', `/api/timelines/${w.publicTimeline}/comments/${held.body.id}/approve`, { userId: w.stranger }).expect(403);
      await h.call('post', `/api/timelines/${w.publicTimeline}/comments/${randomUUID()}/approve`, { userId: w.owner }).expect(404);

      await h.call('post', `/api/timelines/${w.publicTimeline}/comments/${held.body.id}/approve`, { userId: w.owner }).expect(204);
      const shown = (await timelineComments(w.publicTimeline)).find((c) => c.id === held.body.id);
      expect(shown).toMatchObject({ held: false });
      expect((await outbox('social.timeline_comment.added')).length).toBe(addedBefore + 1);
      const approved = fromBinary(CommentApprovedSchema, (await outbox('social.comment.approved')).at(-1)!.payload);
      expect(approved).toMatchObject({ commentId: held.body.id, targetType: TargetType.TIMELINE, userId: w.stranger, approvedBy: w.owner });
      // Approving again changes nothing.
      await h.call('post', `/api/timelines/${w.publicTimeline}/comments/${held.body.id}/approve`, { userId: w.owner }).expect(204);
      expect((await outbox('social.timeline_comment.added')).length).toBe(addedBefore + 1);
      expect((await h.call('get', `/api/timelines/${w.publicTimeline}/held-comments`, { userId: w.owner }).expect(200)).body).toEqual([]);
      // The moderators themselves are never held.
      expect((await commentOnTimeline(w.publicTimeline, w.owner, 'Owner speaking').expect(201)).body.held).toBe(false);
      await setRules('timelines', w.publicTimeline, w.owner, open).expect(200);
    });

    it('by word: only comments with a listed word, on posts, counted when approved', async () => {
      const post = await newPost(w.owner, 'Word list test');
      await setRules('posts', post.id, w.owner, { whoMayComment: 'everyone', heldWords: ['spoiler'] }).expect(200);
      const plain = await h.call('post', `/api/posts/${post.id}/comments`, { userId: w.stranger }).send({ content: 'Nice one' }).expect(201);
      const spoiler = await h.call('post', `/api/posts/${post.id}/comments`, { userId: w.stranger }).send({ content: 'SPOILER: it ends well' }).expect(201);
      expect(plain.body.held).toBe(false);
      expect(spoiler.body.held).toBe(true);
      const count = async () => (await h.call('get', `/api/posts/${post.id}`).expect(200)).body.commentsCount as number;
      expect(await count()).toBe(1);
      const list = async (userId?: string) => ((await h.call('get', `/api/posts/${post.id}/comments`, { userId }).expect(200)).body as Array<{ id: string }>).map((c) => c.id);
      expect(await list()).toEqual([plain.body.id]);
      expect(await list(follower)).toEqual([plain.body.id]);
      expect(await list(w.stranger)).toEqual([plain.body.id, spoiler.body.id]);
      expect(await list(w.owner)).toEqual([plain.body.id, spoiler.body.id]);
      expect((await h.call('get', `/api/posts/${post.id}/held-comments`, { userId: w.owner }).expect(200)).body.map((c: { id: string }) => c.id)).toEqual([spoiler.body.id]);
      await h.call('get', `/api/posts/${post.id}/held-comments`, { userId: w.stranger }).expect(403);
      await h.call('post', `/api/posts/${post.id}/comments/${spoiler.body.id}/approve`, { userId: w.stranger }).expect(403);
      await h.call('post', `/api/posts/${post.id}/comments/${spoiler.body.id}/approve`, { userId: w.owner }).expect(204);
      expect(await count()).toBe(2);
      expect(await list()).toEqual([plain.body.id, spoiler.body.id]);
      const added = fromBinary(CommentAddedSchema, (await outbox('social.comment.added')).at(-1)!.payload);
      expect(added).toMatchObject({ commentId: spoiler.body.id, targetType: TargetType.POST, userId: w.stranger, count: 2n });
    });

    it('from new accounts: younger than the days set', async () => {
      await setRules('timelines', w.publicTimeline, w.owner, { whoMayComment: 'everyone', holdNewAccountsDays: 7 }).expect(200);
      expect((await commentOnTimeline(w.publicTimeline, newcomer, 'Brand new here').expect(201)).body.held).toBe(true);
      expect((await commentOnTimeline(w.publicTimeline, w.stranger, 'Been here a while').expect(201)).body.held).toBe(false);
      await setRules('timelines', w.publicTimeline, w.owner, open).expect(200);
    });

    it("on videos: not counted until approved, the owner's event carries how many wait", async () => {
      const videoId = await h.addVideo(w.privateTimeline);
      await setRules('timelines', w.privateTimeline, w.owner, { whoMayComment: 'everyone', holdAll: true }).expect(200);
      // The collaborator edits the private timeline: not held. The viewer-less private timeline has
      // no other commenters, so the editor's own reply is the moderator case and an old account the held one.
      const top = await h.call('post', `/api/videos/${videoId}/comments`, { userId: w.collaborator }).send({ content: 'Editor note' }).expect(201);
      expect(top.body.held).toBe(false);
      h.override(w.privateTimeline, true);
      try {
        const held = await h.call('post', `/api/videos/${videoId}/comments/${top.body.id}/replies`, { userId: w.stranger }).send({ content: 'A reply to hold' }).expect(201);
        expect(held.body.held).toBe(true);
        const counts = async () => (await h.query<{ comments_count: number; replies_count: number }>(
          `SELECT v.comments_count, c.replies_count FROM videos v JOIN video_comments c ON c.id = $2 WHERE v.id = $1`, [videoId, top.body.id]))[0]!;
        expect(await counts()).toEqual({ comments_count: 1, replies_count: 0 });
        const listed = async (userId?: string) => (await h.call('get', `/api/videos/${videoId}/comments`, { userId }).expect(200)).body[0].replies.map((r: { id: string }) => r.id);
        expect(await listed(w.stranger)).toEqual([held.body.id]);
        expect(await listed(follower)).toEqual([]);
        expect(await listed(w.owner)).toEqual([held.body.id]);
        const queue = await h.call('get', `/api/timelines/${w.privateTimeline}/held-comments`, { userId: w.collaborator }).expect(200);
        expect(queue.body).toEqual([expect.objectContaining({ id: held.body.id, kind: 'video', targetId: videoId, parentId: top.body.id })]);
        await h.call('post', `/api/videos/${videoId}/comments/${held.body.id}/approve`, { userId: w.stranger }).expect(403);
        await h.call('post', `/api/videos/${videoId}/comments/${held.body.id}/approve`, { userId: w.collaborator }).expect(204);
        expect(await counts()).toEqual({ comments_count: 2, replies_count: 1 });
        expect(await listed(follower)).toEqual([held.body.id]);
      } finally {
        h.override(w.privateTimeline, undefined);
        await setRules('timelines', w.privateTimeline, w.owner, open).expect(200);
      }
    });

    it('tells the owner through one event per held comment, each with the number now waiting', async () => {
      const post = await newPost(w.owner, 'Flood test');
      await setRules('posts', post.id, w.owner, { whoMayComment: 'everyone', holdAll: true }).expect(200);
      for (let i = 0; i < 3; i++) await h.call('post', `/api/posts/${post.id}/comments`, { userId: w.stranger }).send({ content: `wait ${i}` }).expect(201);
      const events = (await outbox('social.comment.held')).map((e) => fromBinary(CommentHeldSchema, e.payload)).filter((e) => e.targetId === post.id);
      expect(events.map((e) => e.heldCount)).toEqual([1n, 2n, 3n]);
      expect(events.every((e) => e.ownerId === w.owner && e.targetType === TargetType.POST)).toBe(true);
      expect((await h.call('get', settings('posts', post.id), { userId: w.owner }).expect(200)).body.heldCount).toBe(3);
    });
  });

  describe('deleting any comment on their item', () => {
    it('the owner and editors delete any timeline comment; others only their own', async () => {
      const mine = await commentOnTimeline(w.publicTimeline, w.stranger, 'Delete me').expect(201);
      const other = await commentOnTimeline(w.publicTimeline, follower, 'Not yours').expect(201);
      const before = (await outbox('social.timeline_comment.deleted')).length;
      const refused = await h.call('delete', `/api/timelines/${w.publicTimeline}/comments/${other.body.id}`, { userId: w.stranger }).expect(403);
      expect(refused.body.message).toBe('You can only delete your own comments');
      await h.call('delete', `/api/timelines/${w.publicTimeline}/comments/${other.body.id}`, { userId: w.collaborator }).expect(403);
      await h.call('delete', `/api/timelines/${w.publicTimeline}/comments/${mine.body.id}`, { userId: w.stranger }).expect(204);
      await h.call('delete', `/api/timelines/${w.publicTimeline}/comments/${other.body.id}`, { userId: w.owner }).expect(204);
      await h.call('delete', `/api/timelines/${w.publicTimeline}/comments/${other.body.id}`, { userId: w.owner }).expect(404);
      expect((await outbox('social.timeline_comment.deleted')).length).toBe(before + 2);
      // An editor of the private timeline.
      const onPrivate = await commentOnTimeline(w.privateTimeline, w.owner, 'Owner draft note').expect(201);
      await h.call('delete', `/api/timelines/${w.privateTimeline}/comments/${onPrivate.body.id}`, { userId: w.collaborator }).expect(204);
      await h.call('delete', `/api/timelines/${w.privateTimeline}/comments/${onPrivate.body.id}`, { userId: w.stranger }).expect(404);
    });

    it("the editors delete anyone's video comment", async () => {
      const videoId = await h.addVideo(w.privateTimeline);
      const byOwner = await h.call('post', `/api/videos/${videoId}/comments`, { userId: w.owner }).send({ content: 'Owner' }).expect(201);
      await h.call('delete', `/api/videos/${videoId}/comments/${byOwner.body.id}`, { userId: w.collaborator }).expect(204);
    });

    it("a post's author deletes any comment on it, and the count follows", async () => {
      const post = await newPost(w.owner, 'Delete test');
      const c = await h.call('post', `/api/posts/${post.id}/comments`, { userId: w.stranger }).send({ content: 'rude' }).expect(201);
      await h.call('delete', `/api/posts/${post.id}/comments/${c.body.id}`, { userId: follower }).expect(403);
      await h.call('delete', `/api/posts/${post.id}/comments/${c.body.id}`, { userId: w.owner }).expect(204);
      expect((await h.call('get', `/api/posts/${post.id}`).expect(200)).body.commentsCount).toBe(0);
      await h.call('delete', `/api/posts/${post.id}/comments/${c.body.id}`).expect(401);
    });
  });

  describe('pinning one comment', () => {
    it('shows the pinned comment first, replaces it with the next, unpins; moderators only', async () => {
      const post = await newPost(w.owner, 'Pin test');
      const ids: string[] = [];
      for (const content of ['first', 'second', 'third']) ids.push((await h.call('post', `/api/posts/${post.id}/comments`, { userId: w.stranger }).send({ content }).expect(201)).body.id);
      const list = async () => ((await h.call('get', `/api/posts/${post.id}/comments`).expect(200)).body as Array<{ id: string; pinned: boolean }>).map((c) => `${c.id === ids[0] ? 'first' : c.id === ids[1] ? 'second' : 'third'}${c.pinned ? '*' : ''}`);
      await h.call('put', `/api/posts/${post.id}/comments/${ids[2]}/pin`, { userId: w.stranger }).expect(403);
      await h.call('put', `/api/posts/${post.id}/comments/${ids[2]}/pin`, { userId: w.owner }).expect(204);
      expect(await list()).toEqual(['third*', 'first', 'second']);
      await h.call('put', `/api/posts/${post.id}/comments/${ids[1]}/pin`, { userId: w.owner }).expect(204);
      expect(await list()).toEqual(['second*', 'first', 'third']);
      // Pages after the first leave the pinned one out.
      const page1 = await h.call('get', `/api/posts/${post.id}/comments?limit=1`).expect(200);
      expect(page1.body.map((c: { id: string }) => c.id)).toEqual([ids[1], ids[0]]);
      const page2 = await h.call('get', `/api/posts/${post.id}/comments?limit=5&cursor=${encodeURIComponent(page1.headers['x-next-cursor'] as string)}`).expect(200);
      expect(page2.body.map((c: { id: string }) => c.id)).toEqual([ids[2]]);
      await h.call('delete', `/api/posts/${post.id}/comments/${ids[1]}/pin`, { userId: w.owner }).expect(204);
      expect(await list()).toEqual(['first', 'second', 'third']);
    });

    it('pins on timelines by the editors; a held comment cannot be pinned', async () => {
      const a = await commentOnTimeline(w.privateTimeline, w.owner, 'Pin me').expect(201);
      await h.call('put', `/api/timelines/${w.privateTimeline}/comments/${a.body.id}/pin`, { userId: w.collaborator }).expect(204);
      expect((await timelineComments(w.privateTimeline, w.owner))[0]).toMatchObject({ id: a.body.id, pinned: true });
      await setRules('timelines', w.publicTimeline, w.owner, { whoMayComment: 'everyone', holdAll: true }).expect(200);
      const held = await commentOnTimeline(w.publicTimeline, w.stranger, 'Held one').expect(201);
      const res = await h.call('put', `/api/timelines/${w.publicTimeline}/comments/${held.body.id}/pin`, { userId: w.owner }).expect(409);
      expect(res.body.message).toBe('Approve the comment before pinning it');
      await h.call('put', `/api/timelines/${w.publicTimeline}/comments/${held.body.id}/pin`, { userId: w.collaborator }).expect(403);
      await setRules('timelines', w.publicTimeline, w.owner, open).expect(200);
    });
  });
  describe('every comment-control route, for the moderator, someone else who sees the item and signed out', () => {
    /** A new comment by someone else on the item (a deletion takes it), and the item's id. */
    async function target(route: string): Promise<{ id: string; commentId: string; moderator: string }> {
      if (route.startsWith('/api/posts')) {
        const post = await newPost(w.owner, 'Matrix post');
        const c = await h.call('post', `/api/posts/${post.id}/comments`, { userId: follower }).send({ content: 'for the matrix' }).expect(201);
        return { id: post.id, commentId: c.body.id, moderator: w.owner };
      }
      if (route.startsWith('/api/videos')) {
        const videoId = await h.addVideo(w.publicTimeline);
        const c = await h.call('post', `/api/videos/${videoId}/comments`, { userId: follower }).send({ content: 'for the matrix' }).expect(201);
        return { id: videoId, commentId: c.body.id, moderator: w.owner };
      }
      const c = await commentOnTimeline(w.publicTimeline, follower, 'for the matrix').expect(201);
      return { id: w.publicTimeline, commentId: c.body.id, moderator: w.owner };
    }

    it.each(commentControlRoutes)('$method $route', async ({ method, route, ok, open: readable }) => {
      const outcomes: string[] = [];
      const expected: string[] = [];
      // The stranger sees the public timeline and every post, and moderates neither.
      for (const who of ['moderator', 'stranger', 'anonymous'] as const) {
        const { id, commentId, moderator } = await target(route);
        const path = route.replace('{id}', id).replace('{commentId}', commentId);
        const as = who === 'moderator' ? { userId: moderator } : who === 'stranger' ? { userId: w.stranger } : {};
        const body = route.endsWith('comment-settings') && method === 'put' ? { whoMayComment: 'everyone' } : undefined;
        const res = await h.call(method, path, as).send(body);
        outcomes.push(`${who} ${res.status}`);
        expected.push(`${who} ${who === 'moderator' || readable ? ok : who === 'anonymous' ? 401 : 403}`);
      }
      expect(outcomes).toEqual(expected);
      // An item that does not exist, or a comment elsewhere: 404 for the moderator.
      const { id } = await target(route);
      const elsewhere = await target(route.startsWith('/api/posts') ? '/api/posts' : '/api/timelines');
      if (route.includes('{commentId}')) {
        const res = await h.call(method, route.replace('{id}', id).replace('{commentId}', route.startsWith('/api/posts') ? elsewhere.commentId : randomUUID()), { userId: w.owner });
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('Comment not found');
      }
    });
  });
});
