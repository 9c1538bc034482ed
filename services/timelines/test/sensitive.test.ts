import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { SocialEvents, TimelinesEvents } from '@timeliner/proto';
import { TimelineService } from '../src/timelines/timeline.service.js';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/** Issue 28 item 6: a timeline marked sensitive by its owner, or by the moderators through the service. */
describe('sensitive timelines', () => {
  let h: TimelinesHarness;
  let ada: Person;
  let bob: Person;

  beforeAll(async () => {
    h = await startHarness('tlsensitive');
    ada = await h.register({ displayName: 'Ada' });
    bob = await h.register({ displayName: 'Bob' });
  });
  afterAll(async () => {
    await h.close();
  });

  const create = async () => {
    const t = (await h.call('post', '/api/timelines', as(ada)).send({ title: 'Surgery vlog', visibility: 'public' }).expect(201)).body as { id: string; sensitive: boolean };
    await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ status: 'published' }).expect(200);
    return t;
  };

  it('is not sensitive unless its owner marks it; every viewer then reads sensitive: true', async () => {
    const t = await create();
    expect(t.sensitive).toBe(false);
    const marked = await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ sensitive: true }).expect(200);
    expect(marked.body.sensitive).toBe(true);
    // The snapshot the read models keep (social's feed, search) carries it.
    expect((await h.events(TimelinesEvents.TimelineSnapshot)).filter((e) => e.timelineId === t.id).at(-1)).toMatchObject({ sensitive: true });
    expect((await h.call('get', `/api/timelines/${t.id}`, as(bob)).expect(200)).body.sensitive).toBe(true);
    expect((await h.call('get', `/api/timelines/${t.id}`).expect(200)).body.sensitive).toBe(true);
    // Someone else may not change it; bad input is refused and changes nothing.
    await h.call('patch', `/api/timelines/${t.id}`, as(bob)).send({ sensitive: false }).expect(403);
    for (const sensitive of ['yes', 1, null]) {
      expect((await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ sensitive }).expect(400)).body.message).toBe('Sensitive must be true or false');
    }
    expect((await h.call('get', `/api/timelines/${t.id}`, as(ada)).expect(200)).body.sensitive).toBe(true);
    expect((await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ sensitive: false }).expect(200)).body.sensitive).toBe(false);
  });

  it('lets the moderation desk mark any timeline sensitive through the service', async () => {
    const t = await create();
    const timelines = h.service.app.get(TimelineService);
    expect(await timelines.setSensitive(t.id.toUpperCase(), true, { actorUserId: bob.userId })).toBe(true);
    expect((await h.call('get', `/api/timelines/${t.id}`, as(ada)).expect(200)).body.sensitive).toBe(true);
    expect((await h.events(TimelinesEvents.TimelineSnapshot)).filter((e) => e.timelineId === t.id).at(-1)).toMatchObject({ sensitive: true });
    expect(await timelines.setSensitive(randomUUID(), true)).toBe(false);
    expect(await timelines.setSensitive('not-an-id', true)).toBe(false);
  });

  it("applies the moderation desk's decision event: marked sensitive, then lifted", async () => {
    const t = await create();
    const decide = async (sensitive: boolean) => {
      const eventId = randomUUID();
      await h.publish(SocialEvents.ContentModerated, { actionId: randomUUID(), contentType: 'timeline', contentId: t.id, authorId: ada.userId, hidden: false, sensitive, version: 1n }, eventId);
      await h.waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1);
    };
    await decide(true);
    expect((await h.call('get', `/api/timelines/${t.id}`, as(bob)).expect(200)).body.sensitive).toBe(true);
    expect((await h.events(TimelinesEvents.TimelineSnapshot)).filter((e) => e.timelineId === t.id).at(-1)).toMatchObject({ sensitive: true });
    await decide(false);
    expect((await h.call('get', `/api/timelines/${t.id}`, as(bob)).expect(200)).body.sensitive).toBe(false);
    // Another kind of content, or an id that is not one, is not this service's.
    await h.publish(SocialEvents.ContentModerated, { actionId: randomUUID(), contentType: 'post', contentId: t.id, authorId: ada.userId, hidden: false, sensitive: true, version: 2n });
    await h.publish(SocialEvents.ContentModerated, { actionId: randomUUID(), contentType: 'timeline', contentId: 'nope', authorId: ada.userId, hidden: false, sensitive: true, version: 3n });
    await decide(false);
    expect((await h.call('get', `/api/timelines/${t.id}`, as(bob)).expect(200)).body.sensitive).toBe(false);
  });
});
