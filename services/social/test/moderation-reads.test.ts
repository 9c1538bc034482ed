import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { TimelinesEvents, TimelineStatus, Visibility } from '@timeliner/proto';
import { type SocialHarness, startHarness, waitFor } from './harness.js';

/**
 * What the moderation desk took out stays out of the profile tabs (timelines, followers,
 * following, activity with its likes) for everyone but the person concerned, and a hidden post
 * takes no like, bookmark or comment: it is as absent as a deleted one (issue 28), but to the
 * moderators on its own page, marked, where they review it.
 */
describe('moderation decisions in the profile tabs, likes and comments', () => {
  let h: SocialHarness;
  const mod = randomUUID();
  let owner: string, stranger: string;
  beforeAll(async () => {
    h = await startHarness('socialmodreads');
    ({ owner, stranger } = h.world);
    await h.register(mod, 'mina', 'Mina Moderator');
    await h.register(owner, 'olga', 'Olga Owner');
    await h.register(stranger, 'sam', 'Sam Stranger');
    // The operator's command is tested with the desk; here the role is simply there.
    await h.query(`INSERT INTO staff_roles (user_id, role) VALUES ($1, 'moderator')`, [mod]);
    const now = timestampFromDate(new Date());
    const id = await h.publish(TimelinesEvents.TimelineSnapshot, {
      timelineId: h.world.publicTimeline, creatorId: owner, creatorName: 'Olga Owner', title: 'Public trip', description: '', visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED,
      videoCount: 1, duration: 10, views: 0n, likesCount: 0, commentsCount: 0, activityScore: 1, lastActivityAt: now, createdAt: now, updatedAt: now, coverMediaId: '', revision: 1n,
    });
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).length === 1);
  });
  afterAll(async () => {
    await h.close();
  });

  let n = 0;
  const person = async () => {
    const id = randomUUID();
    n += 1;
    await h.register(id, `mr_${n}`, `Person ${n}`);
    return id;
  };
  const decide = (type: string, id: string, action: string) => h.call('post', `/api/moderation/items/${type}/${id}/decision`, { userId: mod }).send({ action, reason: 'Against the rules' }).expect(201);
  const list = async (path: string, userId?: string) => (await h.call('get', path, userId ? { userId } : {}).expect(200)).body as Array<Record<string, unknown>>;

  it('refuses likes, bookmarks and comments on a hidden post as if it did not exist', async () => {
    const author = await person();
    const post = (await h.call('post', '/api/posts', { userId: author }).send({ content: 'Reported post' }).expect(201)).body.id as string;
    await h.call('post', `/api/posts/${post}/like`, { userId: stranger }).expect(200);
    await decide('post', post, 'hide');

    for (const path of [`/api/posts/${post}/like`, `/api/posts/${post}/bookmark`]) {
      expect((await h.call('post', path, { userId: stranger }).expect(404)).body.message).toBe('Post not found');
      await h.call('delete', path, { userId: stranger }).expect(404);
    }
    await h.call('post', `/api/posts/${post}/comments`, { userId: stranger }).send({ content: 'still here?' }).expect(404);
    await h.call('get', `/api/posts/${post}/liked`, { userId: stranger }).expect(404);
    expect(await h.query('SELECT 1 FROM post_comments WHERE post_id = $1', [post])).toEqual([]);

    // Restored: open again.
    await decide('post', post, 'restore');
    await h.call('post', `/api/posts/${post}/comments`, { userId: stranger }).send({ content: 'welcome back' }).expect(201);
  });

  it('shows a post the moderators took out to staff in context, marked and read-only; to everyone else but its author it is not there', async () => {
    const author = await person();
    const post = (await h.call('post', '/api/posts', { userId: author }).send({ content: 'Post under review' }).expect(201)).body.id as string;
    await h.call('post', `/api/posts/${post}/comments`, { userId: stranger }).send({ content: 'a reply' }).expect(201);
    const seen = async (userId?: string) => (await h.call('get', `/api/posts/${post}`, userId ? { userId } : {}).expect(200)).body as { id: string; removedByModerators: boolean; moderationReason?: string };
    expect((await seen(mod)).removedByModerators).toBe(false);

    await decide('post', post, 'hide');
    // The moderator: the post on its page, marked, with its comments; nothing to do on it but review.
    expect(await seen(mod)).toMatchObject({ id: post, removedByModerators: true, moderationReason: 'Against the rules' });
    expect((await list(`/api/posts/${post}/comments`, mod)).map((c) => c.content)).toEqual(['a reply']);
    await h.call('post', `/api/posts/${post}/like`, { userId: mod }).expect(404);
    await h.call('post', `/api/posts/${post}/comments`, { userId: mod }).send({ content: 'reviewing' }).expect(404);
    // Still out of their lists.
    expect((await list('/api/posts', mod)).map((p) => p.id)).not.toContain(post);
    // Everyone else: not there; its author: as before, marked.
    await h.call('get', `/api/posts/${post}`, { userId: stranger }).expect(404);
    await h.call('get', `/api/posts/${post}`).expect(404);
    await h.call('get', `/api/posts/${post}/comments`, { userId: stranger }).expect(404);
    expect(await seen(author)).toMatchObject({ removedByModerators: true });
    expect((await seen(author)).moderationReason).toBeUndefined();

    // Restored: the same for everyone, unmarked.
    await decide('post', post, 'restore');
    expect((await seen(stranger)).removedByModerators).toBe(false);
    expect((await seen(mod)).removedByModerators).toBe(false);
    expect((await seen(mod)).moderationReason).toBeUndefined();

    // A suspended author's post: marked for the moderator too, absent to the rest.
    await h.call('post', `/api/moderation/users/${author}/suspension`, { userId: mod }).send({ reason: 'Spam', days: 1 }).expect(201);
    expect(await seen(mod)).toMatchObject({ removedByModerators: true, moderationReason: 'Its author is suspended: Spam' });
    await h.call('get', `/api/posts/${post}`, { userId: stranger }).expect(404);
    await h.call('post', `/api/moderation/users/${author}/lift`, { userId: mod }).send({ reason: 'Appeal' }).expect(201);
    expect((await seen(stranger)).removedByModerators).toBe(false);
  });

  it('keeps a comment the moderators hid in its list for staff alone, marked', async () => {
    const author = await person();
    const post = (await h.call('post', '/api/posts', { userId: owner }).send({ content: 'Open thread' }).expect(201)).body.id as string;
    const videoId = await h.addVideo(h.world.publicTimeline);
    const said = async (path: string) => (await h.call('post', path, { userId: author }).send({ content: 'Out of line' }).expect(201)).body.id as string;
    const postComment = await said(`/api/posts/${post}/comments`);
    const timelineComment = await said(`/api/timelines/${h.world.publicTimeline}/comments`);
    const videoComment = await said(`/api/videos/${videoId}/comments`);
    const reply = (await h.call('post', `/api/videos/${videoId}/comments/${videoComment}/replies`, { userId: stranger }).send({ content: 'Calm down' }).expect(201)).body.id as string;
    const lists = { post_comment: `/api/posts/${post}/comments`, timeline_comment: `/api/timelines/${h.world.publicTimeline}/comments`, video_comment: `/api/videos/${videoId}/comments` };
    const ids = { post_comment: postComment, timeline_comment: timelineComment, video_comment: videoComment };
    const found = async (type: keyof typeof lists, userId?: string) => (await list(lists[type], userId)).find((c) => c.id === ids[type]);

    for (const type of Object.keys(lists) as Array<keyof typeof lists>) {
      expect((await found(type, mod))?.removedByModerators).toBeUndefined();
      await decide(type, ids[type], 'hide');
      // Staff: in its list, marked; everyone else, its author too: not there (as before).
      expect(await found(type, mod)).toMatchObject({ id: ids[type], content: 'Out of line', removedByModerators: true });
      for (const who of [stranger, author, owner, undefined]) expect(await found(type, who)).toBeUndefined();
    }
    // A hidden video comment keeps its replies in view for staff, and its own replies page.
    expect(((await found('video_comment', mod)) as { replies: Array<{ id: string }> }).replies.map((r) => r.id)).toEqual([reply]);
    expect((await list(`/api/videos/${videoId}/comments/${videoComment}/replies`, mod)).map((r) => r.id)).toEqual([reply]);
    await h.call('get', `/api/videos/${videoId}/comments/${videoComment}/replies`, { userId: stranger }).expect(404);

    await decide('timeline_comment', timelineComment, 'restore');
    expect((await found('timeline_comment', stranger))?.removedByModerators).toBeUndefined();
    expect((await found('timeline_comment', mod))?.removedByModerators).toBeUndefined();
  });

  it('lets staff read the comments of a timeline the moderators took out, from the desk, and only read them; to everyone else but its owner they are not there', async () => {
    const timeline = h.world.publicTimeline;
    const [author, replier] = [await person(), await person()];
    const videoId = await h.addVideo(timeline);
    const said = async (path: string, content: string, userId = author) => (await h.call('post', path, { userId }).send({ content }).expect(201)).body.id as string;
    const onTimeline = await said(`/api/timelines/${timeline}/comments`, 'Lovely light');
    const outOfLine = await said(`/api/timelines/${timeline}/comments`, 'Out of line');
    const onVideo = await said(`/api/videos/${videoId}/comments`, 'Great shot');
    const reply = await said(`/api/videos/${videoId}/comments/${onVideo}/replies`, 'Agreed', replier);
    await decide('timeline_comment', outOfLine, 'hide');
    await decide('timeline', timeline, 'hide');
    const reads = [`/api/timelines/${timeline}/comments`, `/api/videos/${videoId}/comments`, `/api/videos/${videoId}/comments/${onVideo}/replies`];

    // The moderator: the comments in their lists, the hidden one marked as everywhere.
    const onTimelineSeen = await list(reads[0]!, mod);
    expect(onTimelineSeen.find((c) => c.id === onTimeline)).toMatchObject({ content: 'Lovely light' });
    expect(onTimelineSeen.find((c) => c.id === onTimeline)?.removedByModerators).toBeUndefined();
    expect(onTimelineSeen.find((c) => c.id === outOfLine)).toMatchObject({ content: 'Out of line', removedByModerators: true });
    expect((await list(reads[1]!, mod)).find((c) => c.id === onVideo)).toMatchObject({ content: 'Great shot', replies: [expect.objectContaining({ id: reply })] });
    expect((await list(reads[2]!, mod)).map((r) => r.id)).toEqual([reply]);
    // ... and nothing to do there: no comment, reply or like.
    await h.call('post', reads[0]!, { userId: mod }).send({ content: 'seen from the desk' }).expect(404);
    await h.call('post', reads[1]!, { userId: mod }).send({ content: 'seen from the desk' }).expect(404);
    await h.call('post', reads[2]!, { userId: mod }).send({ content: 'seen from the desk' }).expect(404);
    await h.call('post', `/api/videos/${videoId}/like`, { userId: mod }).expect(404);
    await h.call('post', `/api/timelines/${timeline}/like`, { userId: mod }).expect(404);
    // A moderator its owner blocked reviews it too, as on its page; someone blocked who is not staff does not.
    const [blockedModerator, blocked] = [await person(), await person()];
    await h.query(`INSERT INTO staff_roles (user_id, role) VALUES ($1, 'moderator')`, [blockedModerator]);
    for (const who of [blockedModerator, blocked]) await h.call('post', `/api/users/${who}/block`, { userId: owner }).expect(200);
    expect((await list(reads[0]!, blockedModerator)).map((c) => c.id)).toContain(onTimeline);
    // Everyone else (a stranger, its commenters, its collaborator, someone blocked, anonymous): not there; its owner: as before.
    for (const who of [stranger, author, replier, h.world.collaborator, blocked, undefined]) {
      for (const path of reads) expect((await h.call('get', path, who ? { userId: who } : {}).expect(404)).body.message).toMatch(/not found/u);
    }
    expect((await list(reads[0]!, owner)).map((c) => c.id)).toContain(onTimeline);
    expect((await list(reads[1]!, owner)).map((c) => c.id)).toContain(onVideo);
    // The role taken back: at once, as for everyone.
    await h.query('DELETE FROM staff_roles WHERE user_id = $1', [mod]);
    await h.call('get', reads[0]!, { userId: mod }).expect(404);
    await h.query(`INSERT INTO staff_roles (user_id, role) VALUES ($1, 'moderator')`, [mod]);

    await decide('timeline', timeline, 'restore');
    expect((await list(reads[0]!, stranger)).map((c) => c.id)).toContain(onTimeline);
  });

  it('lets staff read the comments of a video the moderators hid, and only read them; to everyone else but its timeline\'s team it is not there', async () => {
    const author = await person();
    const videoId = await h.addVideo(h.world.publicTimeline);
    const comment = (await h.call('post', `/api/videos/${videoId}/comments`, { userId: author }).send({ content: 'What is this?' }).expect(201)).body.id as string;
    await decide('video', videoId, 'hide');
    const reads = [`/api/videos/${videoId}/comments`, `/api/videos/${videoId}/comments/${comment}/replies`];

    expect((await list(reads[0]!, mod)).map((c) => c.id)).toEqual([comment]);
    expect(await list(reads[1]!, mod)).toEqual([]);
    await h.call('post', reads[0]!, { userId: mod }).send({ content: 'seen from the desk' }).expect(404);
    await h.call('post', reads[1]!, { userId: mod }).send({ content: 'seen from the desk' }).expect(404);
    await h.call('post', `/api/videos/${videoId}/like`, { userId: mod }).expect(404);
    // As if deleted for everyone else: no comments, no likes, no comment.
    for (const who of [stranger, author, h.world.collaborator, undefined]) {
      for (const path of reads) expect((await h.call('get', path, who ? { userId: who } : {}).expect(404)).body.message).toBe('Video not found');
    }
    await h.call('get', `/api/videos/${videoId}/liked`, { userId: stranger }).expect(404);
    await h.call('post', `/api/videos/${videoId}/like`, { userId: stranger }).expect(404);
    await h.call('post', reads[0]!, { userId: author }).send({ content: 'Hello?' }).expect(404);
    // Its timeline's owner still sees it (marked by the media service) with its comments.
    expect((await list(reads[0]!, owner)).map((c) => c.id)).toEqual([comment]);

    await decide('video', videoId, 'restore');
    expect((await list(reads[0]!, stranger)).map((c) => c.id)).toEqual([comment]);
  });

  it("leaves a hidden timeline out of its owner's timelines and everyone's activity (their likes), for all but its owner", async () => {
    const liker = await person();
    await h.call('post', `/api/timelines/${h.world.publicTimeline}/like`, { userId: liker }).expect(200);
    const liked = async (viewer?: string) => (await list(`/api/users/${liker}/activity`, viewer)).filter((a) => a.activityType === 'liked_timeline' && a.targetId === h.world.publicTimeline);
    await waitFor(async () => (await liked(stranger)).length === 1);
    expect((await list(`/api/users/${owner}/timelines`, stranger)).map((t) => t.id)).toContain(h.world.publicTimeline);

    await decide('timeline', h.world.publicTimeline, 'hide');
    expect(await liked(stranger)).toEqual([]);
    expect(await liked()).toEqual([]);
    expect((await list(`/api/users/${owner}/timelines`, stranger)).map((t) => t.id)).not.toContain(h.world.publicTimeline);
    expect((await list(`/api/users/${owner}/timelines`)).map((t) => t.id)).not.toContain(h.world.publicTimeline);
    // Its owner still sees it; the liker still sees their own activity.
    expect((await list(`/api/users/${owner}/timelines`, owner)).map((t) => t.id)).toContain(h.world.publicTimeline);
    expect(await liked(liker)).toHaveLength(1);

    await decide('timeline', h.world.publicTimeline, 'restore');
    expect(await liked(stranger)).toHaveLength(1);
  });

  it('leaves a suspended person out of follower and following lists, and shows none of their activity, until the suspension is lifted', async () => {
    const [suspended, watcher] = [await person(), await person()];
    await h.call('post', `/api/users/${owner}/follow`, { userId: suspended }).expect(200);
    await h.call('post', `/api/users/${suspended}/follow`, { userId: watcher }).expect(200);
    const followers = async () => (await list(`/api/users/${owner}/followers`, stranger)).map((p) => p.userId ?? p.id);
    const following = async () => (await list(`/api/users/${watcher}/following-list`, stranger)).map((p) => p.userId ?? p.id);
    await waitFor(async () => (await list(`/api/users/${suspended}/activity`, stranger)).length > 0);
    expect(await followers()).toContain(suspended);
    expect(await following()).toContain(suspended);

    await h.call('post', `/api/moderation/users/${suspended}/suspension`, { userId: mod }).send({ reason: 'Harassment', days: 7 }).expect(201);
    expect(await followers()).not.toContain(suspended);
    expect(await following()).not.toContain(suspended);
    expect(await list(`/api/users/${suspended}/activity`, stranger)).toEqual([]);
    expect((await list(`/api/users/${watcher}/activity`, stranger)).filter((a) => a.targetId === suspended)).toEqual([]);

    await h.call('post', `/api/moderation/users/${suspended}/lift`, { userId: mod }).send({ reason: 'Appeal' }).expect(201);
    expect(await followers()).toContain(suspended);
    expect((await list(`/api/users/${suspended}/activity`, stranger)).length).toBeGreaterThan(0);
  });
});
