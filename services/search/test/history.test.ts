import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type SearchHarness, startHarness } from './harness.js';

/** A signed-in person's recent searches: recorded by searching, theirs only. */
describe('search history', () => {
  let h: SearchHarness;
  const ada = randomUUID();
  const bob = randomUUID();
  beforeAll(async () => {
    h = await startHarness('searchhist');
  });
  afterAll(async () => {
    await h.close();
  });

  const searchAs = (userId: string | undefined, q: string, extra = '') => h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}${extra}`, { userId }).expect(200);
  const history = async (userId: string) => ((await h.call('get', '/api/search/history', { userId }).expect(200)).body as Array<{ id: string; query: string }>);

  it('records a signed-in search once, newest first; typing a query out leaves one entry', async () => {
    for (const q of ['sup', 'super', 'superman']) await searchAs(ada, q);
    await searchAs(ada, 'gotham nights');
    await searchAs(ada, '  Superman ');
    expect((await history(ada)).map((e) => e.query)).toEqual(['Superman', 'gotham nights']);
    // Paging and anonymous searches record nothing.
    await searchAs(undefined, 'anonymous');
    await searchAs(ada, 'paged', `&type=timelines&cursor=${Buffer.from('[20]').toString('base64url')}`);
    expect((await history(ada)).map((e) => e.query)).toEqual(['Superman', 'gotham nights']);
    expect(await history(bob)).toEqual([]);
  });

  it('records the result opened from a search', async () => {
    const timelineId = randomUUID();
    await h.call('post', '/api/search/history', { userId: ada }).send({ query: 'gotham nights', resultType: 'timeline', resultId: timelineId }).expect(204);
    expect((await history(ada))[0]).toEqual(expect.objectContaining({ query: 'gotham nights', resultType: 'timeline', resultId: timelineId, createdAt: expect.any(String) }));
  });

  it.each([
    [{}, 'Query must be text'],
    [{ query: '' }, 'Query is required'],
    [{ query: 'x'.repeat(201) }, 'Query must be at most 200 characters'],
    [{ query: 'x', resultType: 'post', resultId: 'y' }, 'Result type must be one of timeline, user, hashtag'],
    [{ query: 'x', resultType: 'timeline', resultId: 'not-a-uuid' }, 'Result id must be a UUID'],
    [{ query: 'x', resultType: 'hashtag', resultId: '#$%' }, 'Result id must be a hashtag name'],
    [{ query: 'x', resultId: randomUUID() }, 'Result type is required with a result id'],
    [{ query: 'x', userId: randomUUID() }, 'Unknown field: userId'],
  ])('a bad record is a 400 and changes nothing: %j', async (body, message) => {
    const before = await history(ada);
    const res = await h.call('post', '/api/search/history', { userId: ada }).send(body).expect(400);
    expect(res.body.message).toBe(message);
    expect(await history(ada)).toEqual(before);
  });

  it('removes one entry of one\'s own; someone else\'s is not found', async () => {
    await searchAs(bob, 'bob only');
    const [bobs] = await history(bob);
    await h.call('delete', `/api/search/history/${bobs!.id}`, { userId: ada }).expect(404);
    await h.call('delete', '/api/search/history/not-a-uuid', { userId: ada }).expect(404);
    expect(await history(bob)).toHaveLength(1);
    const [latest] = await history(ada);
    await h.call('delete', `/api/search/history/${latest!.id}`, { userId: ada }).expect(204);
    expect((await history(ada)).map((e) => e.id)).not.toContain(latest!.id);
  });

  it("clears one's own history only", async () => {
    await h.call('delete', '/api/search/history', { userId: ada }).expect(204);
    expect(await history(ada)).toEqual([]);
    expect(await history(bob)).toHaveLength(1);
  });

  it('needs a signed-in caller', async () => {
    await h.call('get', '/api/search/history').expect(401);
    await h.call('delete', '/api/search/history').expect(401);
    await h.call('post', '/api/search/history').send({ query: 'x' }).expect(401);
    await h.call('delete', `/api/search/history/${randomUUID()}`).expect(401);
  });

  it("writes one person's many searches at once one after another, none of them waiting in the database", async () => {
    const dave = randomUUID();
    const queries = Array.from({ length: 30 }, (_, i) => `harbour ${String.fromCharCode(97 + (i % 26))}${i} lights`);
    let waiting = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [row] = await h.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`);
        waiting = Math.max(waiting, Number(row!.n));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    await Promise.all(queries.map((q) => searchAs(dave, q)));
    sampling = false;
    await sampler;
    expect(waiting).toBe(0);
    const recorded = (await h.call('get', '/api/search/history?limit=50', { userId: dave }).expect(200)).body as Array<{ query: string }>;
    expect(recorded.map((e) => e.query).sort()).toEqual([...queries].sort());
  });

  it('keeps the 50 most recent', async () => {
    const carol = randomUUID();
    for (let i = 0; i < 55; i++) await h.call('post', '/api/search/history', { userId: carol }).send({ query: `distinct query ${i} ${i % 2 ? 'odd' : 'even'}x${i}` }).expect(204);
    const list = (await h.call('get', '/api/search/history?limit=50', { userId: carol }).expect(200)).body as Array<{ query: string }>;
    expect(list).toHaveLength(50);
    expect(list[0]!.query).toContain('distinct query 54');
    expect(Number((await h.query<{ n: string }>('SELECT count(*) AS n FROM search_history WHERE user_id = $1', [carol]))[0]!.n)).toBe(50);
  });
});
