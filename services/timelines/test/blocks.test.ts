import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { requestRpc } from '@timeliner/platform';
import { SocialEvents, TimelinesRpc } from '@timeliner/proto';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/**
 * Blocks in the timelines service (issue 28), from the social service's BlockChanged: a blocked
 * pair's timelines are as absent to each other as private ones (404, not listed, CheckAccess
 * false, so media, comments, likes and /ws follow), and neither can add the other to a timeline.
 */
describe('blocked pairs and timelines', () => {
  let h: TimelinesHarness;
  let owner: Person, blocked: Person, other: Person;
  let version = 0n;
  beforeAll(async () => {
    h = await startHarness('tlblocks');
    [owner, blocked, other] = [await h.register(), await h.register(), await h.register()];
  });
  afterAll(async () => {
    await h.close();
  });

  const published = async (who: Person, title: string) => {
    const t = (await h.call('post', '/api/timelines', as(who)).send({ title, visibility: 'public' }).expect(201)).body as { id: string };
    await h.call('patch', `/api/timelines/${t.id}`, as(who)).send({ status: 'published' }).expect(200);
    return t.id;
  };
  const block = async (blocker: Person, target: Person, active: boolean) => {
    version += 1n;
    await h.publish(SocialEvents.BlockChanged, { blockerId: blocker.userId, blockedId: target.userId, active, version, at: timestampFromDate(new Date()) });
    await h.waitFor(async () => (await h.query<{ version: string }>('SELECT version FROM person_filters WHERE owner_id = $1 AND other_id = $2', [blocker.userId, target.userId]))[0]?.version === version.toString());
  };
  const check = (timelineId: string, userId = '') => requestRpc(h.bus, TimelinesRpc.CheckAccess, { timelineId, userId }, { timeoutMs: 2_000 });
  const listed = async (who: Person) => ((await h.call('get', '/api/timelines', as(who)).expect(200)).body as Array<{ id: string }>).map((t) => t.id);

  it('hides each one\'s timelines from the other, either way, until the block is lifted', async () => {
    const [mine, theirs] = [await published(owner, 'Owner trip'), await published(blocked, 'Blocked trip')];
    await block(owner, blocked, true);
    await h.call('get', `/api/timelines/${mine}`, as(blocked)).expect(404);
    await h.call('get', `/api/timelines/${theirs}`, as(owner)).expect(404);
    expect((await check(mine, blocked.userId)).canView).toBe(false);
    expect((await check(theirs, owner.userId)).canView).toBe(false);
    expect(await listed(blocked)).not.toContain(mine);
    expect(await listed(owner)).not.toContain(theirs);
    // Everyone else, and each one's own, as before.
    await h.call('get', `/api/timelines/${mine}`, as(other)).expect(200);
    await h.call('get', `/api/timelines/${mine}`, as(owner)).expect(200);
    await h.call('get', `/api/timelines/${mine}`).expect(200);
    expect(await listed(other)).toEqual(expect.arrayContaining([mine, theirs]));

    await block(owner, blocked, false);
    await h.call('get', `/api/timelines/${mine}`, as(blocked)).expect(200);
    expect((await check(theirs, owner.userId)).canView).toBe(true);
  });

  it('lets neither add the other to a timeline', async () => {
    const trip = await published(owner, 'Team trip');
    await block(blocked, owner, true);
    const res = await h.call('post', `/api/timelines/${trip}/invite`, as(owner)).send({ email: blocked.email, role: 'editor' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('You cannot add this person to this timeline');
    expect(await h.query('SELECT 1 FROM collaborators WHERE timeline_id = $1 AND user_id = $2', [trip, blocked.userId])).toEqual([]);
    await h.call('post', `/api/timelines/${trip}/invite`, as(owner)).send({ email: other.email, role: 'editor' }).expect(200);
  });
});
