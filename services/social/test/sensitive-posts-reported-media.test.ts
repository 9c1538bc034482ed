import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { fromBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { ContentModeratedSchema, MediaEvents, MediaType, TimelinesEvents, TimelineStatus, Visibility } from '@timeliner/proto';
import { type SocialHarness, startHarness, waitFor } from './harness.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

/**
 * Issue 28 items 5–6 for posts and single videos: a post marked sensitive by its author or the
 * desk; a video reported, seen by the desk in context and decided on; a hidden post its author
 * still reads, marked removed by moderators, while nobody else does.
 */
describe('sensitive posts and reported videos', () => {
  let h: SocialHarness;
  const mod = randomUUID();
  const viewer = randomUUID();

  beforeAll(async () => {
    h = await startHarness('sensitiveposts');
    await h.register(h.world.owner, 'olivia', 'Olivia Owner');
    await h.register(mod, 'mona', 'Mona Moderator');
    await h.register(viewer, 'vic', 'Vic Viewer');
    await run(process.execPath, [path.join(root, 'scripts/admin.mjs'), 'grant', 'mona', 'moderator'], { cwd: root, env: { ...process.env, DATABASE_URL: h.db.url, LOG_LEVEL: 'silent' } });
    const now = new Date();
    const id = await h.publish(TimelinesEvents.TimelineSnapshot, {
      timelineId: h.world.publicTimeline, creatorId: h.world.owner, creatorName: 'Olivia Owner', title: 'Ward rounds', description: '', visibility: Visibility.PUBLIC,
      status: TimelineStatus.PUBLISHED, videoCount: 1, duration: 10, views: 0n, likesCount: 0, commentsCount: 0, activityScore: 1, lastActivityAt: timestampFromDate(now),
      createdAt: timestampFromDate(now), updatedAt: timestampFromDate(now), coverMediaId: '', revision: 1n,
    });
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).length === 1);
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  const as = (userId: string) => ({ userId });

  it('keeps the author\'s sensitive mark on a post: set when posting, changed in its settings, refused when not true or false', async () => {
    const created = await h.call('post', '/api/posts', as(h.world.owner)).send({ content: 'Stitches, up close', sensitive: true }).expect(201);
    expect(created.body).toMatchObject({ sensitive: true, removedByModerators: false });
    const id = created.body.id as string;
    expect((await h.call('get', `/api/posts/${id}`, as(viewer)).expect(200)).body.sensitive).toBe(true);
    expect((await h.call('post', '/api/posts', as(h.world.owner)).send({ content: 'Plain' }).expect(201)).body.sensitive).toBe(false);

    // Absent: unchanged, and not an edit of the text.
    const same = await h.call('put', `/api/posts/${id}`, as(h.world.owner)).send({ content: 'Stitches, up close' }).expect(200);
    expect(same.body).toMatchObject({ sensitive: true, edited: false });
    const off = await h.call('put', `/api/posts/${id}`, as(h.world.owner)).send({ content: 'Stitches, up close', sensitive: false }).expect(200);
    expect(off.body).toMatchObject({ sensitive: false, edited: false });
    for (const sensitive of ['yes', 1, null]) {
      const res = await h.call('put', `/api/posts/${id}`, as(h.world.owner)).send({ content: 'Changed', sensitive }).expect(400);
      expect(res.body.message).toBe('Sensitive must be true or false');
      expect((await h.call('post', '/api/posts', as(h.world.owner)).send({ content: 'x', sensitive }).expect(400)).body.message).toBe('Sensitive must be true or false');
    }
    expect((await h.call('get', `/api/posts/${id}`, as(viewer)).expect(200)).body).toMatchObject({ content: 'Stitches, up close', sensitive: false });
    await h.call('put', `/api/posts/${id}`, as(viewer)).send({ content: 'Stitches, up close', sensitive: true }).expect(403);
    expect((await h.call('get', `/api/posts/${id}`).expect(200)).body.sensitive).toBe(false);
  });

  it('marks a post sensitive and hides it from the desk: the author still sees it, removed by moderators; nobody else does', async () => {
    const id = (await h.call('post', '/api/posts', as(h.world.owner)).send({ content: 'Borderline' }).expect(201)).body.id as string;
    await h.call('post', `/api/moderation/items/post/${id}/decision`, as(mod)).send({ action: 'sensitive', reason: 'Graphic' }).expect(201);
    expect((await h.call('get', `/api/posts/${id}`, as(viewer)).expect(200)).body.sensitive).toBe(true);
    // The author's own mark cannot lift the moderators' one.
    await h.call('put', `/api/posts/${id}`, as(h.world.owner)).send({ content: 'Borderline', sensitive: false }).expect(200);
    expect((await h.call('get', `/api/posts/${id}`, as(viewer)).expect(200)).body.sensitive).toBe(true);

    await h.call('post', `/api/moderation/items/post/${id}/decision`, as(mod)).send({ action: 'hide', reason: 'Breaks the rules' }).expect(201);
    await h.call('get', `/api/posts/${id}`, as(viewer)).expect(404);
    await h.call('get', `/api/posts/${id}`).expect(404);
    expect((await h.call('get', '/api/posts?limit=50', as(viewer)).expect(200)).body.some((p: { id: string }) => p.id === id)).toBe(false);
    expect((await h.call('get', `/api/posts/${id}`, as(h.world.owner)).expect(200)).body).toMatchObject({ id, removedByModerators: true, sensitive: true });
    expect((await h.call('get', '/api/posts?limit=50', as(h.world.owner)).expect(200)).body.find((p: { id: string }) => p.id === id)).toMatchObject({ removedByModerators: true });
  });

  it('takes a report of a single video the reporter may see; the desk shows it in context and decides on it', async () => {
    const video = await h.addVideo(h.world.publicTimeline);
    const hidden = await h.addVideo(h.world.privateTimeline);
    const report = (contentId: string, userId = viewer) => h.call('post', '/api/reports', as(userId)).send({ contentType: 'video', contentId, reason: 'violence', description: 'At 0:12' });
    expect((await report(video).expect(201)).body).toMatchObject({ contentType: 'video', contentId: video, status: 'pending' });
    expect((await report(hidden).expect(404)).body.message).toBe('Video not found');
    expect((await report(randomUUID()).expect(404)).body.message).toBe('Video not found');

    const queue = (await h.call('get', '/api/moderation/queue', as(mod)).expect(200)).body as { items: Array<{ contentType: string; contentId: string; notes: string[]; item: Record<string, unknown> | null }> };
    expect(queue.items.find((i) => i.contentId === video)).toMatchObject({
      contentType: 'video', notes: ['At 0:12'],
      item: { contentType: 'video', authorId: h.world.owner, authorUsername: 'olivia', text: 'A video or image in Ward rounds', link: `/watch/${h.world.publicTimeline}?video=${video}`, hidden: false, sensitive: false },
    });

    await h.call('post', `/api/moderation/items/video/${video}/decision`, as(mod)).send({ action: 'hide', reason: 'Gore' }).expect(201);
    const decisions = (await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = 'social.content.moderated' ORDER BY position`)).map((r) => fromBinary(ContentModeratedSchema, r.payload));
    expect(decisions.at(-1)).toMatchObject({ contentType: 'video', contentId: video, authorId: h.world.owner, hidden: true, sensitive: false });
    const notices = (await h.call('get', '/api/moderation-notices', as(h.world.owner)).expect(200)).body as Array<{ contentType: string; contentId: string; summary: string }>;
    expect(notices.find((n) => n.contentId === video)).toMatchObject({ contentType: 'video', summary: 'Removed by moderators: your video' });
    await h.call('post', `/api/moderation/items/video/${randomUUID()}/decision`, as(mod)).send({ action: 'hide', reason: 'Gore' }).expect(404);
  });

  it('takes a report of a single image as of a video: the desk shows it as a video or image and decides on it', async () => {
    const image = randomUUID();
    const uploaded = await h.publish(MediaEvents.UploadCompleted, { mediaId: image, timelineId: h.world.publicTimeline, uploaderId: h.world.owner, mediaType: MediaType.IMAGE, originalName: 'x-ray.png', mimeType: 'image/png', size: 512n });
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [uploaded])).length === 1);
    const report = (userId: string) => h.call('post', '/api/reports', as(userId)).send({ contentType: 'video', contentId: image, reason: 'nudity' });
    expect((await report(viewer).expect(201)).body).toMatchObject({ contentType: 'video', contentId: image, status: 'pending' });
    // Again: the first report, unchanged.
    expect((await report(viewer).expect(200)).body).toMatchObject({ contentType: 'video', contentId: image, reason: 'nudity' });

    const queue = (await h.call('get', '/api/moderation/queue', as(mod)).expect(200)).body as { items: Array<{ contentType: string; contentId: string; item: Record<string, unknown> | null }> };
    expect(queue.items.find((i) => i.contentId === image)).toMatchObject({
      contentType: 'video', item: { contentType: 'video', text: 'A video or image in Ward rounds', link: `/watch/${h.world.publicTimeline}?video=${image}`, hidden: false },
    });
    await h.call('post', `/api/moderation/items/video/${image}/decision`, as(mod)).send({ action: 'hide', reason: 'Not for this audience' }).expect(201);
    const decisions = (await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = 'social.content.moderated' ORDER BY position`)).map((r) => fromBinary(ContentModeratedSchema, r.payload));
    expect(decisions.at(-1)).toMatchObject({ contentType: 'video', contentId: image, authorId: h.world.owner, hidden: true });

    // Deleted: nothing left to report.
    const deleted = await h.publish(MediaEvents.MediaDeleted, { mediaId: image, timelineId: h.world.publicTimeline, mediaType: MediaType.IMAGE });
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [deleted])).length === 1);
    expect((await report(mod).expect(404)).body.message).toBe('Video not found');
  });
});
