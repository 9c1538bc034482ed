import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type MediaHarness, startHarness } from './harness.js';

/**
 * Someone else's public timeline exported back to back: a fresh export of the same content is
 * handed out again whatever it is named, and new exports are limited per person.
 */
describe('exports per person', () => {
  let h: MediaHarness;
  const path = () => `/api/timelines/${h.world.publicTimeline}/export`;

  const addVideo = (position: number) =>
    h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, duration, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, 'media/x/original', 'clip.mp4', 'clip', 'video', 1, 1000, 'video/mp4', 'completed', $4, now())`,
      [randomUUID(), h.world.publicTimeline, h.world.owner, position],
    );
  /** What the worker does when it is done with an export. */
  const finish = async (exportId: string) => {
    const key = `exports/${exportId}/made.mp4`;
    await h.storage.put(key, Buffer.from('an mp4'));
    await h.query(`UPDATE exports SET status = 'completed', object_key = $2, completed_at = now() WHERE id = $1`, [exportId, key]);
  };

  beforeAll(async () => {
    h = await startHarness('mediaexportlimits', { exportLimits: { perHour: 2, perDay: 3 } });
    await addVideo(0);
  });
  afterAll(async () => {
    await h.close();
  });

  it('hands a fresh export of the same content out again under the name asked for, making nothing', async () => {
    const stranger = h.as('stranger');
    const first = await h.call('post', path(), stranger).send({ options: { title: 'Holiday' } }).expect(202);
    await finish(first.body.exportId);
    const jobs = h.exportJobs.jobs.length;

    const renamed = await h.call('post', path(), stranger).send({ options: { title: 'Something else' } }).expect(200);
    expect(renamed.body.fileName).toBe('Something_else.mp4');
    expect(h.exportJobs.jobs).toHaveLength(jobs);
    const file = await h.call('get', renamed.body.downloadUrl, {}).expect(200);
    expect(file.headers['content-disposition']).toContain('Something_else.mp4');
    // It goes when the file it shares goes.
    const [shared] = await h.query<{ created_at: Date; object_key: string }>('SELECT created_at, object_key FROM exports WHERE id = $1', [renamed.body.exportId]);
    const [original] = await h.query<{ created_at: Date; object_key: string }>('SELECT created_at, object_key FROM exports WHERE id = $1', [first.body.exportId]);
    expect(shared).toEqual(original);

    // Another person asking for the same content gets it too.
    const other = await h.call('post', path(), h.as('viewer')).send({ options: { title: 'Holiday' } }).expect(200);
    expect(other.body.exportId).toBe(first.body.exportId);
    expect(h.exportJobs.jobs).toHaveLength(jobs);
  });

  it('limits new exports per person per hour with 429 and Retry-After; the count is per person', async () => {
    const stranger = h.as('stranger');
    // The first test's export was one; the content changes, so this is a new one.
    await addVideo(1);
    const second = await h.call('post', path(), stranger).send({ options: { title: 'Two' } }).expect(202);
    await finish(second.body.exportId);
    await addVideo(2);
    const refused = await h.call('post', path(), stranger).send({ options: { title: 'Three' } }).expect(429);
    expect(refused.body.message).toMatch(/^You can start at most 2 exports an hour; try again in \d+ minutes$/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    expect(await h.query(`SELECT id FROM exports WHERE file_name = 'Three.mp4'`)).toEqual([]);

    // Someone else still exports the new content; then the stranger is handed theirs.
    const viewers = await h.call('post', path(), h.as('viewer')).send({ options: { title: 'Three' } }).expect(202);
    await finish(viewers.body.exportId);
    await h.call('post', path(), stranger).send({ options: { title: 'Three' } }).expect(200);
  });

  it('and per day', async () => {
    const stranger = h.as('stranger');
    await h.query(`UPDATE person_limit_hits SET at = at - interval '2 hours' WHERE user_id = $1`, [stranger.userId]);
    await addVideo(3);
    const third = await h.call('post', path(), stranger).send({ options: { title: 'Four' } }).expect(202);
    await finish(third.body.exportId);
    await addVideo(4);
    const refused = await h.call('post', path(), stranger).send({ options: { title: 'Five' } }).expect(429);
    expect(refused.body.message).toMatch(/^You can start at most 3 exports a day; try again in 22 hours$/);
  });
});
