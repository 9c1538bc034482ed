import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/** Issue 30 item 5: "Resume at 2:14", each person's own place in each timeline. */
describe('watch positions', () => {
  let h: TimelinesHarness;
  let ada: Person;
  let bob: Person;
  let cy: Person;

  beforeAll(async () => {
    h = await startHarness('tlresume');
    ada = await h.register({ displayName: 'Ada' });
    bob = await h.register({ displayName: 'Bob' });
    cy = await h.register({ displayName: 'Cy' });
  });
  afterAll(async () => {
    await h.close();
  });

  const create = async (visibility: 'public' | 'private' = 'public') => {
    const t = (await h.call('post', '/api/timelines', as(ada)).send({ title: 'Alps by train', visibility }).expect(201)).body as { id: string };
    await h.call('patch', `/api/timelines/${t.id}`, as(ada)).send({ status: 'published' }).expect(200);
    return t.id;
  };
  const path = (id: string) => `/api/timelines/${id}/watch-position`;

  it('keeps each person their own place, overwritten as they watch, and forgets it when they finish', async () => {
    const id = await create();
    const first = randomUUID();
    const third = randomUUID();
    expect((await h.call('get', path(id), as(bob)).expect(200)).body).toEqual({ position: null });

    const saved = (await h.call('put', path(id), as(bob)).send({ itemId: first, seconds: 12.34 }).expect(200)).body;
    expect(saved).toEqual({ position: { itemId: first, seconds: 12.3, updatedAt: expect.any(String) } });
    await h.call('put', path(id), as(bob)).send({ itemId: third.toUpperCase(), seconds: 134 }).expect(200);
    await h.call('put', path(id), as(cy)).send({ itemId: first, seconds: 5 }).expect(200);

    // Another device of the same person reads the latest; nobody else's place shows through.
    const latest = (await h.call('get', path(id), as(bob)).expect(200)).body;
    expect(latest.position).toMatchObject({ itemId: third, seconds: 134 });
    expect(Date.parse(latest.position.updatedAt)).toBeGreaterThanOrEqual(Date.parse(saved.position.updatedAt));
    expect((await h.call('get', path(id), as(cy)).expect(200)).body.position).toMatchObject({ itemId: first, seconds: 5 });
    expect((await h.call('get', path(id), as(ada)).expect(200)).body).toEqual({ position: null });
    expect(await h.query('SELECT count(*)::int AS n FROM watch_positions WHERE timeline_id = $1', [id])).toEqual([{ n: 2 }]);

    // Watched to the end: Bob's place is gone, Cy's stays; clearing twice is fine.
    await h.call('delete', path(id), as(bob)).expect(204);
    await h.call('delete', path(id), as(bob)).expect(204);
    expect((await h.call('get', path(id), as(bob)).expect(200)).body).toEqual({ position: null });
    expect((await h.call('get', path(id), as(cy)).expect(200)).body.position).toMatchObject({ seconds: 5 });
  });

  it('needs an account, and refuses bad input without changing the saved place', async () => {
    const id = await create();
    const item = randomUUID();
    await h.call('put', path(id), as(bob)).send({ itemId: item, seconds: 40 }).expect(200);
    expect((await h.call('get', path(id)).expect(401)).body.message).toBe('Authentication required');
    await h.call('put', path(id)).send({ itemId: item, seconds: 1 }).expect(401);
    await h.call('delete', path(id)).expect(401);
    const bad: Array<[unknown, string]> = [
      [{ itemId: item, seconds: Number.MAX_VALUE }, 'Seconds must be a number from 0 to 86400'],
      [{ itemId: item, seconds: null }, 'Seconds must be a number from 0 to 86400'],
      [{ itemId: 42, seconds: 1 }, 'Item id must be the id of a video or image'],
      [{ itemId: item, seconds: 1, updatedAt: '2020-01-01' }, 'Unknown field: updatedAt'],
    ];
    for (const [body, message] of bad) {
      expect((await h.call('put', path(id), as(bob)).send(body as object).expect(400)).body.message).toBe(message);
    }
    expect((await h.call('get', path(id), as(bob)).expect(200)).body.position).toMatchObject({ itemId: item, seconds: 40 });
    // A timeline that does not exist, or an id that is not one.
    for (const missing of [randomUUID(), 'not-an-id']) {
      expect((await h.call('put', path(missing), as(bob)).send({ itemId: item, seconds: 1 }).expect(404)).body.message).toBe('Timeline not found');
      await h.call('get', path(missing), as(bob)).expect(404);
    }
  });

  it('answers as absent for a timeline the person may no longer see, and forgets places with the timeline', async () => {
    const id = await create();
    const item = randomUUID();
    await h.call('put', path(id), as(bob)).send({ itemId: item, seconds: 75 }).expect(200);
    await h.call('patch', `/api/timelines/${id}`, as(ada)).send({ visibility: 'private' }).expect(200);
    for (const method of ['get', 'delete'] as const) expect((await h.call(method, path(id), as(bob)).expect(404)).body.message).toBe('Timeline not found');
    await h.call('put', path(id), as(bob)).send({ itemId: item, seconds: 80 }).expect(404);
    // The owner of a private timeline keeps a place of their own.
    await h.call('put', path(id), as(ada)).send({ itemId: item, seconds: 3 }).expect(200);
    // Visible again: the place Bob had is still his (the refused writes changed nothing).
    await h.call('patch', `/api/timelines/${id}`, as(ada)).send({ visibility: 'public' }).expect(200);
    expect((await h.call('get', path(id), as(bob)).expect(200)).body.position).toMatchObject({ seconds: 75 });

    await h.call('delete', `/api/timelines/${id}`, as(ada)).expect(204);
    expect(await h.query('SELECT count(*)::int AS n FROM watch_positions WHERE timeline_id = $1', [id])).toEqual([{ n: 0 }]);
  });
});
