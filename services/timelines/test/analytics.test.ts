import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { MediaEvents } from '@timeliner/proto';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

describe('analytics', () => {
  let h: TimelinesHarness;
  let owner: Person;
  let editor: Person;
  let bob: Person;

  const publicTimeline = async (title: string) => {
    const { id } = (await h.call('post', '/api/timelines', as(owner)).send({ title, visibility: 'public' }).expect(201)).body;
    await h.call('patch', `/api/timelines/${id}`, as(owner)).send({ status: 'published' }).expect(200);
    await h.call('post', `/api/timelines/${id}/invite`, as(owner)).send({ email: editor.email, role: 'editor' }).expect(200);
    return id as string;
  };
  const report = async (id: string) => (await h.call('get', `/api/timelines/${id}/analytics`, as(editor)).expect(200)).body;

  beforeAll(async () => {
    h = await startHarness('tlanalytics');
    owner = await h.register();
    editor = await h.register();
    bob = await h.register();
  });
  afterAll(async () => {
    await h.close();
  });

  it('reads zeros, no sample figures, before anything was recorded', async () => {
    const id = await publicTimeline('Quiet');
    const empty = await report(id);
    expect(empty).toEqual({
      totalViews: 0,
      uniqueViewers: 0,
      avgWatchTime: 0,
      completionRate: 0,
      shares: 0,
      downloads: 0,
      peakViewingTime: null,
      viewsByDay: Array.from({ length: 30 }, (_, i) => ({ day: utcDay(29 - i), views: 0 })),
      topRegions: [],
      hasData: false,
    });
  });

  it('computes the figures from recorded views, shares and downloads', async () => {
    const id = await publicTimeline('Watched');
    const hourNow = () => `${String(new Date().getUTCHours()).padStart(2, '0')}:00`;
    const hours = [hourNow()];
    const view = (who: { userId?: string; sessionId?: string; ip?: string }, body: Record<string, unknown>, userAgent = 'Browser/1') =>
      h.call('post', `/api/timelines/${id}/views`, who).set('user-agent', userAgent).send(body).expect(204);

    await view(as(bob), { watchTime: 30, completion: 0.5, timeZone: 'Europe/Paris' });
    await view({ ip: '203.0.113.10' }, { watchTime: 60, completion: 1, timeZone: 'America/New_York' });
    // A browser set to UTC is counted; its zone has no region.
    await view({ ip: '203.0.113.11' }, { watchTime: 90, completion: 0.25, timeZone: 'UTC' });
    let figures = await report(id);
    expect(figures).toMatchObject({ totalViews: 3, uniqueViewers: 3, avgWatchTime: 60, completionRate: 58.3, hasData: true });
    expect((await h.call('get', `/api/timelines/${id}`).expect(200)).body.views).toBe(3);

    // The same viewer again within half an hour is the same view, watched further.
    await view(as(bob), { watchTime: 45, completion: 0.75 });
    await view({ ip: '203.0.113.10' }, { watchTime: 10, completion: 0.1 });
    figures = await report(id);
    expect(figures).toMatchObject({ totalViews: 3, uniqueViewers: 3, avgWatchTime: 65, completionRate: 66.7 });
    // Another address is another viewer.
    await view({ ip: '203.0.113.13' }, { watchTime: 15, completion: 0.5, timeZone: 'America/Chicago' }, 'Browser/2');

    await h.call('post', `/api/timelines/${id}/shares`, as(bob)).send({ channel: 'link' }).expect(204);
    await h.call('post', `/api/timelines/${id}/shares`, as(bob)).send({ channel: 'link' }).expect(204);
    await h.call('post', `/api/timelines/${id}/shares`, as(bob)).send({ channel: 'twitter' }).expect(204);
    await h.call('post', `/api/timelines/${id}/shares`, { ip: '203.0.113.12' }).expect(204);
    await h.call('post', `/api/timelines/${id}/downloads`, as(bob)).expect(204);

    figures = await report(id);
    hours.push(hourNow());
    expect(hours).toContain(figures.peakViewingTime);
    expect(figures).toEqual({
      totalViews: 4,
      uniqueViewers: 4,
      avgWatchTime: 52.5,
      completionRate: 62.5,
      shares: 3,
      downloads: 1,
      peakViewingTime: expect.stringMatching(/^\d\d:00$/),
      viewsByDay: expect.any(Array),
      topRegions: [
        { region: 'America', views: 2, percentage: 50 },
        { region: 'Europe', views: 1, percentage: 25 },
        { region: 'Unknown', views: 1, percentage: 25 },
      ],
      hasData: true,
    });
    expect(figures.viewsByDay).toHaveLength(30);
    expect(figures.viewsByDay.at(-1)).toEqual({ day: utcDay(0), views: 4 });
    expect(figures.viewsByDay.slice(0, 29).every((d: { views: number }) => d.views === 0)).toBe(true);
  });

  it("does not count the owner's or an editor's own shares (their Copy link), only the audience's", async () => {
    const id = await publicTimeline('Shared by its team');
    await h.call('post', `/api/timelines/${id}/shares`, as(owner)).send({ channel: 'link' }).expect(204);
    await h.call('post', `/api/timelines/${id}/shares`, as(editor)).send({ channel: 'twitter' }).expect(204);
    expect(await report(id)).toMatchObject({ shares: 0, hasData: false });
    await h.call('post', `/api/timelines/${id}/shares`, as(bob)).send({ channel: 'link' }).expect(204);
    expect(await report(id)).toMatchObject({ shares: 1, hasData: true });
  });

  it('counts an anonymous address once per window however it changes its User-Agent (views and downloads)', async () => {
    const id = await publicTimeline('Inflated');
    for (let i = 0; i < 5; i++) {
      await h.call('post', `/api/timelines/${id}/views`, { ip: '198.51.100.77' }).set('user-agent', `Bot/${i}`).send({ watchTime: 5, completion: 0.1 }).expect(204);
      await h.call('post', `/api/timelines/${id}/downloads`, { ip: '198.51.100.77' }).set('user-agent', `Bot/${i}`).expect(204);
    }
    const figures = await report(id);
    expect(figures).toMatchObject({ totalViews: 1, uniqueViewers: 1, downloads: 1 });
    expect((await h.call('get', `/api/timelines/${id}`).expect(200)).body.views).toBe(1);
  });

  it('counts every download of its exports the media service served (ExportDownloaded)', async () => {
    const id = await publicTimeline('Downloaded');
    const applied = async (eventId: string) => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1;
    const downloaded = (viewerKey: string, timelineId = id, eventId?: string) =>
      h.publish(MediaEvents.ExportDownloaded, { exportId: randomUUID(), timelineId, viewerKey }, eventId);
    // Five exports downloaded by their owner, one by someone not signed in.
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await downloaded(`u:${owner.userId}`));
    ids.push(await downloaded('a:c2FsdGVkLWhhc2g'));
    // A redelivered event counts once; a download of a deleted timeline's export counts nowhere.
    await h.publish(MediaEvents.ExportDownloaded, { exportId: randomUUID(), timelineId: id, viewerKey: `u:${bob.userId}` }, ids[0]);
    ids.push(await downloaded(`u:${bob.userId}`, randomUUID()));
    await h.waitFor(async () => (await Promise.all(ids.map(applied))).every(Boolean));
    expect(await report(id)).toMatchObject({ downloads: 6, hasData: true });
  });

  it('buckets views by UTC day over the last 30 days and finds the busiest hour', async () => {
    const id = await publicTimeline('History');
    const at = (daysAgo: number, hour: number) => {
      const d = new Date(Date.now() - daysAgo * 86_400_000);
      d.setUTCHours(hour, 15, 0, 0);
      return d;
    };
    const recorded: Array<[Date, number]> = [[at(3, 18), 20], [at(3, 18), 40], [at(3, 7), 60], [at(10, 18), 80], [at(45, 7), 100]];
    for (const [i, [createdAt, watchTime]] of recorded.entries()) {
      await h.query(`INSERT INTO timeline_views (id, timeline_id, viewer_key, watch_time, completion, created_at) VALUES (gen_random_uuid(), $1, $2, $3, 0.5, $4)`, [id, `u:viewer-${i % 3}`, watchTime, createdAt]);
    }
    const figures = await report(id);
    expect(figures).toMatchObject({ totalViews: 5, uniqueViewers: 3, avgWatchTime: 60, completionRate: 50, peakViewingTime: '18:00' });
    const byDay = Object.fromEntries(figures.viewsByDay.map((d: { day: string; views: number }) => [d.day, d.views]));
    expect(byDay[utcDay(3)]).toBe(3);
    expect(byDay[utcDay(10)]).toBe(1);
    // Older than the window: in the totals, not in the chart.
    expect(figures.viewsByDay.reduce((n: number, d: { views: number }) => n + d.views, 0)).toBe(4);
  });

  it('shows analytics to the owner and editors only', async () => {
    const id = await publicTimeline('Private figures');
    await h.call('get', `/api/timelines/${id}/analytics`, as(owner)).expect(200);
    expect((await h.call('get', `/api/timelines/${id}/analytics`, as(bob)).expect(403)).body.message).toBe('Only the owner and editors can see the analytics of this timeline');
    await h.call('get', `/api/timelines/${id}/analytics`).expect(401);
  });
});
