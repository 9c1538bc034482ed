import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { requestRpc, serveRpc, type Subscription } from '@timeliner/platform';
import { SocialEvents, SocialRpc, TimelinesRpc } from '@timeliner/proto';
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

  describe('staff reading it in context', () => {
    // The social service's answer (SocialRpc.StaffRole), served here on the bus as the harness serves auth's lookup.
    const staff = new Set<string>();
    const asked: string[] = [];
    let social: Subscription | undefined;
    const socialUp = async () => {
      social = await serveRpc(h.bus, SocialRpc.StaffRole, 'social', async ({ userId }) => {
        asked.push(userId);
        return { role: staff.has(userId) ? 'moderator' : '' };
      });
    };
    const socialDown = async () => {
      await social?.unsubscribe();
      social = undefined;
    };
    let moderator: Person;
    beforeAll(async () => {
      moderator = await h.register();
      staff.add(moderator.userId);
      await socialUp();
    });
    afterAll(socialDown);
    const inContext = (timelineId: string, userId: string) => requestRpc(h.bus, TimelinesRpc.CheckAccess, { timelineId, userId, inContext: true }, { timeoutMs: 2_000 });

    it('shows staff a hidden timeline on its page, marked and read-only; a stranger still gets 404, its owner sees it as before', async () => {
      const trip = await published(owner, 'Trip for the desk');
      asked.length = 0;
      // A timeline that is shown costs no question to the social service.
      await h.call('get', `/api/timelines/${trip}`, as(moderator)).expect(200);
      expect(asked).toEqual([]);

      await moderate(trip, true);
      const seen = (await h.call('get', `/api/timelines/${trip}`, as(moderator)).expect(200)).body as { id: string; removedByModerators: boolean; role: string | null };
      expect(seen).toMatchObject({ id: trip, removedByModerators: true });
      expect(asked).toEqual([moderator.userId]);
      // A stranger: 404, asked once; signed out: 404 without asking; the owner: marked, without asking.
      asked.length = 0;
      await h.call('get', `/api/timelines/${trip}`, as(viewer)).expect(404);
      await h.call('get', `/api/timelines/${trip}`).expect(404);
      expect(((await h.call('get', `/api/timelines/${trip}`, as(owner)).expect(200)).body as { removedByModerators: boolean }).removedByModerators).toBe(true);
      expect(asked).toEqual([viewer.userId]);

      // Read-only: every other route stays as if it were absent, and it stays out of the lists.
      await h.call('patch', `/api/timelines/${trip}`, as(moderator)).send({ title: 'Renamed' }).expect(404);
      await h.call('delete', `/api/timelines/${trip}`, as(moderator)).expect(404);
      await h.call('get', `/api/timelines/${trip}/collaborators`, as(moderator)).expect(404);
      await h.call('get', `/api/timelines/${trip}/analytics`, as(moderator)).expect(404);
      await h.call('post', `/api/timelines/${trip}/views`, as(moderator)).send({ watchTime: 30, completion: 0.5, timeZone: 'UTC' }).expect(404);
      expect(await listed(moderator)).not.toContain(trip);
      expect((await h.query<{ title: string }>('SELECT title FROM timelines WHERE id = $1', [trip]))[0]?.title).toBe('Trip for the desk');

      // Over the bus: the media service's reads (in context) see it, never to edit; likes, comments
      // and realtime (not in context) do not.
      expect(await inContext(trip, moderator.userId)).toMatchObject({ canView: true, canEdit: false, removedByModerators: true, ownerId: owner.userId });
      expect((await check(trip, moderator.userId)).canView).toBe(false);
      expect(await inContext(trip, viewer.userId)).toMatchObject({ canView: false, canEdit: false, removedByModerators: false, ownerId: '' });
      expect(await inContext(trip, owner.userId)).toMatchObject({ canView: true, canEdit: true, removedByModerators: true });
      // An editor who is also staff reads it, and does not edit it through this.
      await h.call('post', `/api/timelines/${trip}/invite`, as(owner)).send({ email: editor.email, role: 'editor' }).expect(200);
      staff.add(editor.userId);
      expect(await inContext(trip, editor.userId)).toMatchObject({ canView: true, canEdit: false, removedByModerators: true });
      staff.delete(editor.userId);
      expect((await inContext(trip, editor.userId)).canView).toBe(false);

      await moderate(trip, false);
      expect(((await h.call('get', `/api/timelines/${trip}`, as(moderator)).expect(200)).body as { removedByModerators: boolean }).removedByModerators).toBe(false);
    });

    it("shows staff a suspended person's published timelines, not their drafts nor private ones", async () => {
      const suspect = await h.register();
      const open = await published(suspect, 'Out there');
      const draft = ((await h.call('post', '/api/timelines', as(suspect)).send({ title: 'Draft', visibility: 'public' }).expect(201)).body as { id: string }).id;
      const secret = ((await h.call('post', '/api/timelines', as(suspect)).send({ title: 'Secret', visibility: 'private' }).expect(201)).body as { id: string }).id;
      await h.call('patch', `/api/timelines/${secret}`, as(suspect)).send({ status: 'published' }).expect(200);
      await suspend(suspect, true);
      expect(((await h.call('get', `/api/timelines/${open}`, as(moderator)).expect(200)).body as { removedByModerators: boolean }).removedByModerators).toBe(true);
      await h.call('get', `/api/timelines/${draft}`, as(moderator)).expect(404);
      await h.call('get', `/api/timelines/${secret}`, as(moderator)).expect(404);
      await h.call('get', `/api/timelines/${open}`, as(viewer)).expect(404);
      await suspend(suspect, false);
    });

    it('answers 404 to staff when the social service does not answer (fail closed), and serves them again once it does', async () => {
      const trip = await published(owner, 'While social is down');
      await moderate(trip, true);
      await socialDown();
      const started = Date.now();
      await h.call('get', `/api/timelines/${trip}`, as(moderator)).expect(404);
      // The short deadline of the staff question, not the route's.
      expect(Date.now() - started).toBeLessThan(3_000);
      expect((await inContext(trip, moderator.userId)).canView).toBe(false);
      // A social service that hangs: the same, once the short deadline passes.
      const slow = await serveRpc(h.bus, SocialRpc.StaffRole, 'social', async () => {
        await new Promise((r) => setTimeout(r, 1_500));
        return { role: 'moderator' };
      });
      const waited = Date.now();
      await h.call('get', `/api/timelines/${trip}`, as(moderator)).expect(404);
      expect(Date.now() - waited).toBeLessThan(1_400);
      await slow.unsubscribe();
      await socialUp();
      await h.call('get', `/api/timelines/${trip}`, as(moderator)).expect(200);
    });
  });
});
