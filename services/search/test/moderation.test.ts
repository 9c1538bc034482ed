import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { SocialEvents } from '@timeliner/proto';
import { type SearchHarness, startHarness, uniqueWord, waitFor } from './harness.js';

/**
 * The moderation desk in search (issue 28): a hidden timeline leaves every result, a suspended
 * account and its timelines too, within 2 s, until restored or lifted; an older decision never
 * undoes a newer one.
 */
describe('search applies the moderators\' decisions', () => {
  let h: SearchHarness;
  const viewer = randomUUID();
  const author = randomUUID();
  const other = randomUUID();
  const word = uniqueWord('harbour');
  let hidden: string;
  let version = 0n;
  const next = () => (version += 1n);

  const timelines = async (q: string) =>
    ((await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}&type=timelines`, { userId: viewer }).expect(200)).body as { timelines: Array<{ id: string; creatorId: string }> }).timelines.map((t) => t.id);
  const people = async (q: string) =>
    ((await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}&type=users`, { userId: viewer }).expect(200)).body as { users: Array<{ id: string }> }).users.map((u) => u.id);

  beforeAll(async () => {
    h = await startHarness('searchmoderation');
    for (const [id, name] of [[viewer, 'Vera'], [author, 'Arlo'], [other, 'Otto']] as const) await h.register(`${name.toLowerCase()}_${word}`, `${name} ${word}`, id);
    hidden = (await h.timeline({ title: `${word} spam by Arlo`, creatorId: author, creatorName: 'Arlo' })).timelineId;
    await h.timeline({ title: `${word} second by Arlo`, creatorId: author, creatorName: 'Arlo' });
    await h.timeline({ title: `${word} walk by Otto`, creatorId: other, creatorName: 'Otto' });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('takes a hidden timeline out of the results and brings it back when restored', async () => {
    expect(await timelines(word)).toHaveLength(3);
    const hide = next();
    await h.publish(SocialEvents.ContentModerated, { actionId: randomUUID(), contentType: 'timeline', contentId: hidden, authorId: author, hidden: true, sensitive: false, version: hide, at: timestampFromDate(new Date()) });
    const started = Date.now();
    await waitFor(async () => !(await timelines(word)).includes(hidden), 2_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await timelines(word)).toHaveLength(2);
    // An older "restore" arriving late changes nothing.
    await h.publish(SocialEvents.ContentModerated, { actionId: randomUUID(), contentType: 'timeline', contentId: hidden, authorId: author, hidden: false, sensitive: false, version: hide - 1n, at: timestampFromDate(new Date()) });
    await new Promise((r) => setTimeout(r, 300));
    expect(await timelines(word)).not.toContain(hidden);
    await h.publish(SocialEvents.ContentModerated, { actionId: randomUUID(), contentType: 'timeline', contentId: hidden, authorId: author, hidden: false, sensitive: false, version: next(), at: timestampFromDate(new Date()) });
    await waitFor(async () => (await timelines(word)).includes(hidden), 2_000);
  });

  it('takes a suspended account and its timelines out until the suspension is lifted', async () => {
    expect(await people(word)).toContain(author);
    await h.publish(SocialEvents.AccountSuspensionChanged, { actionId: randomUUID(), userId: author, active: true, until: timestampFromDate(new Date(Date.now() + 86_400_000)), reason: 'Spam', version: next(), at: timestampFromDate(new Date()) });
    await waitFor(async () => !(await people(word)).includes(author), 2_000);
    expect(await timelines(word)).toHaveLength(1);
    await h.publish(SocialEvents.AccountSuspensionChanged, { actionId: randomUUID(), userId: author, active: false, reason: 'Lifted', version: next(), at: timestampFromDate(new Date()) });
    await waitFor(async () => (await people(word)).includes(author) && (await timelines(word)).length === 3, 2_000);
  });
});
