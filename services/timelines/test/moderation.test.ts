import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { requestRpc } from '@timeliner/platform';
import { SocialEvents, TimelinesRpc } from '@timeliner/proto';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/**
 * The moderation desk's decisions in the timelines service (issue 28), from the social service's
 * ContentModerated and AccountSuspensionChanged: a hidden timeline, and every timeline of a
 * suspended person, is absent (404, not listed, CheckAccess false, so its videos, the watch and
 * embed pages, comments, likes and /ws follow) to everyone but its owner, who sees it marked
 * "Removed by moderators".
 */
describe('timelines the moderators took out', () => {
  let h: TimelinesHarness;
  let owner: Person, editor: Person, viewer: Person;
  let version = 0n;
  beforeAll(async () => {
    h = await startHarness('tlmoderation');
    [owner, editor, viewer] = [await h.register(), await h.register(), await h.register()];
  });
  afterAll(async () => {
    await h.close();
  });

  const published = async (who: Person, title: string) => {
    const t = (await h.call('post', '/api/timelines', as(who)).send({ title, visibility: 'public' }).expect(201)).body as { id: string };
    await h.call('patch', `/api/timelines/${t.id}`, as(who)).send({ status: 'published' }).expect(200);
    return t.id;
  };
  const applied = async () => {
    const v = version.toString();
    await h.waitFor(async () => (await h.query('SELECT 1 FROM moderation_hidden WHERE version = $1', [v])).length > 0);
  };
  const moderate = async (timelineId: string, hidden: boolean) => {
    version += 1n;
    await h.publish(SocialEvents.ContentModerated, { actionId: randomUUID(), contentType: 'timeline', contentId: timelineId, authorId: owner.userId, hidden, sensitive: false, version, at: timestampFromDate(new Date()) });
    await applied();
  };
  const suspend = async (who: Person, active: boolean, until?: Date) => {
    version += 1n;
    await h.publish(SocialEvents.AccountSuspensionChanged, { actionId: randomUUID(), userId: who.userId, active, ...(until ? { until: timestampFromDate(until) } : {}), reason: 'Spam', version, at: timestampFromDate(new Date()) });
    await applied();
  };
  const check = (timelineId: string, userId = '') => requestRpc(h.bus, TimelinesRpc.CheckAccess, { timelineId, userId }, { timeoutMs: 2_000 });
  const listed = async (who?: Person) => ((await h.call('get', '/api/timelines', who ? as(who) : {}).expect(200)).body as Array<{ id: string }>).map((t) => t.id);
  const mine = async (who: Person) => ((await h.call('get', '/api/my-timelines', as(who)).expect(200)).body as Array<{ id: string }>).map((t) => t.id);

  it('shows a hidden timeline to its owner alone, marked, until it is restored', async () => {
    const trip = await published(owner, 'Reported trip');
    await h.call('post', `/api/timelines/${trip}/invite`, as(owner)).send({ email: editor.email, role: 'editor' }).expect(200);
    // Someone with an account is added at once.
    expect(await h.query('SELECT 1 FROM collaborators WHERE timeline_id = $1 AND user_id = $2 AND status = $3', [trip, editor.userId, 'active'])).toHaveLength(1);
    const before = (await h.call('get', `/api/timelines/${trip}`, as(owner)).expect(200)).body as { removedByModerators: boolean };
    expect(before.removedByModerators).toBe(false);

    await moderate(trip, true);
    // Everyone else: as if it did not exist, wherever they look.
    await h.call('get', `/api/timelines/${trip}`, as(viewer)).expect(404);
    await h.call('get', `/api/timelines/${trip}`).expect(404);
    await h.call('post', `/api/timelines/${trip}/views`, as(viewer)).send({ watchTime: 30, completion: 0.5, timeZone: 'UTC' }).expect(404);
    expect((await check(trip, viewer.userId)).canView).toBe(false);
    expect((await check(trip)).canView).toBe(false);
    expect(await listed(viewer)).not.toContain(trip);
    expect(await listed()).not.toContain(trip);
    // A collaborator other than the owner too.
    expect((await check(trip, editor.userId)).canView).toBe(false);
    expect(await mine(editor)).not.toContain(trip);
    // Its owner still sees it, marked.
    const seen = (await h.call('get', `/api/timelines/${trip}`, as(owner)).expect(200)).body as { removedByModerators: boolean };
    expect(seen.removedByModerators).toBe(true);
    expect((await check(trip, owner.userId)).canView).toBe(true);
    const own = ((await h.call('get', '/api/my-timelines', as(owner)).expect(200)).body as Array<{ id: string; removedByModerators: boolean }>).find((t) => t.id === trip);
    expect(own?.removedByModerators).toBe(true);

    await moderate(trip, false);
    await h.call('get', `/api/timelines/${trip}`, as(viewer)).expect(200);
    expect(await listed()).toContain(trip);
    expect((await check(trip, editor.userId)).canView).toBe(true);
  });

  it('takes every timeline of a suspended person out until the suspension ends or is lifted', async () => {
    const [first, second] = [await published(viewer, 'First'), await published(viewer, 'Second')];
    await suspend(viewer, true);
    for (const id of [first, second]) {
      await h.call('get', `/api/timelines/${id}`, as(owner)).expect(404);
      await h.call('get', `/api/timelines/${id}`).expect(404);
      expect((await check(id, owner.userId)).canView).toBe(false);
    }
    expect(await listed(owner)).not.toEqual(expect.arrayContaining([first]));
    expect(await listed()).not.toContain(second);

    await suspend(viewer, false);
    await h.call('get', `/api/timelines/${first}`, as(owner)).expect(200);
    expect(await listed()).toEqual(expect.arrayContaining([first, second]));

    // A suspension that has ended hides nothing; an older event arriving late changes nothing.
    await suspend(viewer, true, new Date(Date.now() - 1_000));
    await h.call('get', `/api/timelines/${first}`).expect(200);
    await h.publish(SocialEvents.AccountSuspensionChanged, { actionId: randomUUID(), userId: viewer.userId, active: true, reason: 'Late', version: 1n, at: timestampFromDate(new Date()) });
    await h.call('get', `/api/timelines/${second}`).expect(200);
  });
});
