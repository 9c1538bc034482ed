import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type SearchHarness, startHarness, uniqueWord } from './harness.js';

/** Matching and ranking: words, phrases, exclusions, accents, prefixes, typos, #tags, @people. */
describe('search queries', () => {
  let h: SearchHarness;
  const ids = (body: { timelines: Array<{ id: string }> }) => body.timelines.map((t) => t.id);
  const search = async (q: string, extra = '') => (await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}${extra}`).expect(200)).body;

  // Unique stems keep this file's words apart from anything else in the database.
  const s = uniqueWord('');
  const w = (word: string) => `${word}${s}`;
  let superman: string;
  let batman: string;
  let cafe: string;
  let tour: string;
  let quiet: string;
  let loud: string;
  let alice: string;

  beforeAll(async () => {
    h = await startHarness('searchq');
    alice = await h.register(`alice${s}`, 'Alice Liddell');
    superman = (await h.timeline({ title: `Super${w('man')} returns`, description: `A ${w('flying')} hero over ${w('metropolis')}`, creatorId: alice })).timelineId;
    batman = (await h.timeline({ title: `Bat${w('man')} begins`, description: `The ${w('dark')} ${w('knight')} in ${w('gotham')} #${w('heroes')}` })).timelineId;
    cafe = (await h.timeline({ title: `Crème brûlée at the Café ${w('central')}`, description: `Paris ${w('desserts')}` })).timelineId;
    tour = (await h.timeline({ title: `Tour of ${w('gotham')}`, description: `${w('knight')} walks and the ${w('dark')} alleys` })).timelineId;
    quiet = (await h.timeline({ title: `${w('harbor')} morning`, views: 0 })).timelineId;
    loud = (await h.timeline({ title: `${w('harbor')} evening`, views: 50_000, likesCount: 900 })).timelineId;
  });
  afterAll(async () => {
    await h.close();
  });

  it('every word must match, in any field; title and hashtags rank above the description', async () => {
    expect(ids(await search(`${w('gotham')} ${w('knight')}`)).sort()).toEqual([batman, tour].sort());
    expect(ids(await search(`${w('metropolis')} ${w('knight')}`))).toEqual([]);
    // gotham is in the title of the tour and in the description of batman.
    expect(ids(await search(`${w('gotham')} `))).toEqual([tour, batman]);
    // A #tag of the description counts with the title.
    expect(ids(await search(`${w('heroes')} `))).toEqual([batman]);
  });

  it('quoted phrases keep their order and -word excludes', async () => {
    expect(ids(await search(`"${w('dark')} ${w('knight')}"`))).toEqual([batman]);
    expect(ids(await search(`"${w('knight')} ${w('dark')}"`))).toEqual([]);
    expect(ids(await search(`${w('gotham')} -${w('harbor')} -Tour`))).toEqual([batman]);
    expect(ids(await search(`${w('metropolis')} or ${w('desserts')}`)).sort()).toEqual([superman, cafe].sort());
  });

  it('ignores accents and case', async () => {
    expect(ids(await search(`creme BRULEE ${w('central')} `))).toEqual([cafe]);
    expect(ids(await search(`CAFÉ ${w('CENTRAL')} `))).toEqual([cafe]);
  });

  it('matches the last word as a prefix while it is typed', async () => {
    const stem = w('metropolis').slice(0, 6);
    expect(ids(await search(stem))).toEqual([superman]);
    expect(ids(await search(`${w('flying')} ${stem}`))).toEqual([superman]);
    // A finished word (space after it) is a whole word.
    expect(ids(await search(`${stem} `))).toEqual([]);
  });

  it('tolerates typos: suprman finds Superman, in the title or the description', async () => {
    expect(ids(await search(`Suprman${s}`))).toEqual([superman]);
    expect(ids(await search(`suprman${s} `))).toEqual([superman]);
    const typo = w('metropolis').replace('tropo', 'tropp');
    expect(ids(await search(`hero ${typo}`))).toEqual([superman]);
    // The start of a word with a typo, while typing.
    expect(ids(await search(w('metropolis').replace('metro', 'mtro').slice(0, 9)))).toEqual([superman]);
  });

  it('tolerates a typo in every word of a query, short words and swapped letters too', async () => {
    const trip = (await h.timeline({ title: `${w('summer')} trip`, description: `Beach ${w('days')} and a ${w('road')} map` })).timelineId;
    const summerTypo = w('summer').replace('summer', 'sumer');
    // A letter missing from both words, the last one still being typed or finished.
    expect(ids(await search(`${summerTypo} trp`))).toEqual([trip]);
    expect(ids(await search(`${summerTypo} trp `))).toEqual([trip]);
    // Two letters swapped, a letter too many, a letter replaced.
    expect(ids(await search(`${summerTypo} tirp `))).toEqual([trip]);
    expect(ids(await search(`trrip ${summerTypo} `))).toEqual([trip]);
    expect(ids(await search(`${summerTypo} trap `))).toEqual([trip]);
    // Every word still has to match: one that is like no known word finds nothing.
    expect(ids(await search(`${summerTypo} zqx `))).toEqual([]);
    // A two-letter word is taken as typed.
    expect(ids(await search(`${summerTypo} tr `))).toEqual([]);
  });

  it('popularity lifts a result among equally good matches', async () => {
    expect(ids(await search(`${w('harbor')} `))).toEqual([loud, quiet]);
  });

  it('finds people by username, name and a username one letter off; @name looks for people only', async () => {
    expect((await search(`alice${s}`)).users.map((u: { id: string }) => u.id)).toEqual([alice]);
    expect((await search(`alica${s}`)).users.map((u: { id: string }) => u.id)).toEqual([alice]);
    expect((await search('Liddell', '&type=users')).users.map((u: { id: string }) => u.id)).toContain(alice);
    const people = await search(`@alice${s}`);
    expect(people.users.map((u: { id: string }) => u.id)).toEqual([alice]);
    expect(people.timelines).toEqual([]);
    // The creator's username finds their timelines.
    expect(ids(await search(`alice${s} returns`))).toEqual([superman]);
  });

  it('#tag finds hashtags and the timelines using them, also while the tag is typed', async () => {
    const all = await search(`#${w('heroes')}`);
    expect(all.hashtags).toEqual([{ name: w('heroes'), usageCount: 1 }]);
    expect(ids(all)).toEqual([batman]);
    expect(all.users).toEqual([]);
    expect(ids(await search(`#${w('heroes').slice(0, -2)}`))).toEqual([batman]);
  });

  it('pages one kind with type and a cursor; all kinds are capped by limit', async () => {
    const stem = uniqueWord('page');
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await h.timeline({ title: `${stem} number ${i}`, views: i * 10 })).timelineId);
    const first = await h.call('get', `/api/search/enhanced?q=${stem}%20&type=timelines&limit=2`).expect(200);
    expect(first.body.timelines).toHaveLength(2);
    expect(first.body.users).toEqual([]);
    const seen = ids(first.body);
    let cursor = first.headers['x-next-cursor'] as string | undefined;
    while (cursor) {
      const next = await h.call('get', `/api/search/enhanced?q=${stem}%20&type=timelines&limit=2&cursor=${cursor}`).expect(200);
      seen.push(...ids(next.body));
      cursor = next.headers['x-next-cursor'] as string | undefined;
    }
    expect(seen).toEqual([...made].reverse());
    const capped = await h.call('get', `/api/search/enhanced?q=${stem}%20&limit=3`).expect(200);
    expect(capped.body.timelines).toHaveLength(3);
    expect(capped.headers['x-next-cursor']).toBeUndefined();
  });

  it('an empty query answers empty lists', async () => {
    expect(await search('')).toEqual({ timelines: [], users: [], hashtags: [] });
    expect(await search('   ')).toEqual({ timelines: [], users: [], hashtags: [] });
  });

  it.each([
    ['q too long', `q=${'a'.repeat(201)}`, 'Query must be at most 200 characters'],
    ['unknown type', 'q=x&type=posts', 'Type must be one of all, timelines, users, hashtags'],
    ['limit 0', 'q=x&limit=0', 'Limit must be a whole number from 1 to 50'],
    ['limit 51', 'q=x&limit=51', 'Limit must be a whole number from 1 to 50'],
    ['limit not a number', 'q=x&limit=ten', 'Limit must be a whole number from 1 to 50'],
    ['garbage cursor', 'q=x&type=timelines&cursor=abc', 'Invalid cursor'],
    ['negative offset', `q=x&type=timelines&cursor=${Buffer.from('[-5]').toString('base64url')}`, 'Invalid cursor'],
    ['cursor without type', `q=x&cursor=${Buffer.from('[5]').toString('base64url')}`, 'A cursor pages one type: give type as well'],
    ['unknown field', 'q=x&sort=new', 'Unknown field: sort'],
  ])('bad input is a clear 400: %s', async (_name, query, message) => {
    const res = await h.call('get', `/api/search/enhanced?${query}`).expect(400);
    expect(res.body).toEqual(expect.objectContaining({ statusCode: 400, message }));
  });

  it('odd text never fails: operators, quotes, backslashes, NUL-free control characters', async () => {
    for (const q of ['"', '""', '-', '!!', "'", "o'neil", '\\', ':*', '& | !', '(((', 'a:*b', '#', '@', '#!!', '½ ¼', 'x'.repeat(200)]) {
      await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}`).expect(200);
    }
  });

  it('the limit is validated and capped on popular and trending', async () => {
    await h.call('get', '/api/discover/popular/timeline?limit=51').expect(400);
    await h.call('get', '/api/discover/popular/timeline?limit=-1').expect(400);
    await h.call('get', '/api/hashtags/trending?limit=0').expect(400);
    await h.call('get', '/api/hashtags/trending?limit=abc').expect(400);
    await h.call('get', `/api/hashtags/trending?limit=2&x=${randomUUID()}`).expect(400);
    expect((await h.call('get', '/api/discover/popular/timeline?limit=2').expect(200)).body).toHaveLength(2);
  });
});
