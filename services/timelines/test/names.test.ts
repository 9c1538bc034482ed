import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/** A timeline's title is a stored name: shown as typed, never reordered by hidden characters. */
describe('timeline titles', () => {
  let h: TimelinesHarness;
  let ada: Person;

  beforeAll(async () => {
    h = await startHarness('tlnames');
    ada = await h.register({ displayName: 'Ada' });
  });
  afterAll(async () => {
    await h.close();
  });

  it('lose control and bidirectional formatting characters, on creation and on an edit', async () => {
    const created = await h.call('post', '/api/timelines', as(ada)).send({ title: ' \u202Egnp.4pm \u2069' }).expect(201);
    expect(created.body.title).toBe('gnp.4pm');
    const edited = await h.call('patch', `/api/timelines/${created.body.id}`, as(ada)).send({ title: 'Trip\u200f to\u0007 Lisbon' }).expect(200);
    expect(edited.body.title).toBe('Trip to Lisbon');
    const [row] = await h.query<{ title: string }>('SELECT title FROM timelines WHERE id = $1', [created.body.id]);
    expect(row!.title).toBe('Trip to Lisbon');
  });
});
