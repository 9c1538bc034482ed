import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { TimelineStatus, Visibility } from '@timeliner/proto';
import { type SearchHarness, startHarness, uniqueWord } from './harness.js';

/**
 * No answer of search, popular or trending ever contains a private, unlisted or draft timeline or
 * its words, for any caller: such timelines are seeded with words of their own and looked for
 * every way there is. A public timeline seeded alike shows that each way does find things.
 */
describe('search never shows what is not public and published', () => {
  let h: SearchHarness;
  const owner = randomUUID();
  const hidden: Array<{ kind: string; id: string; word: string; tag: string; name: string }> = [];
  let visible: { id: string; word: string; tag: string };

  const kinds = [
    ['private', { visibility: Visibility.PRIVATE, status: TimelineStatus.PUBLISHED }],
    ['unlisted', { visibility: Visibility.UNLISTED, status: TimelineStatus.PUBLISHED }],
    ['draft', { visibility: Visibility.PUBLIC, status: TimelineStatus.DRAFT }],
    ['processing', { visibility: Visibility.PUBLIC, status: TimelineStatus.PROCESSING }],
    ['private draft', { visibility: Visibility.PRIVATE, status: TimelineStatus.DRAFT }],
  ] as const;

  beforeAll(async () => {
    h = await startHarness('searchpriv');
    await h.register(uniqueWord('owner'), 'Owner Person', owner);
    for (const [kind, state] of kinds) {
      const word = uniqueWord('secret');
      const tag = uniqueWord('hiddentag');
      const name = uniqueWord('creatorname');
      // Three creators each, so the tag would trend and each would be a first in popular.
      for (const creatorId of [owner, randomUUID(), randomUUID()]) {
        const t = await h.timeline({ title: `${word} plans`, description: `About ${word} #${tag}`, creatorName: name, creatorId, views: 100_000, likesCount: 5_000, ...state });
        hidden.push({ kind, id: t.timelineId, word, tag, name });
      }
    }
    const word = uniqueWord('openword');
    const tag = uniqueWord('opentag');
    const shown = [];
    for (const creatorId of [owner, randomUUID(), randomUUID()]) {
      shown.push(await h.timeline({ title: `${word} plans`, description: `About ${word} #${tag}`, creatorId, views: 10 }));
    }
    visible = { id: shown[0]!.timelineId, word, tag };
  });
  afterAll(async () => {
    await h.close();
  });

  /** Every way of asking about a word and a tag. */
  const queries = (word: string, tag: string, name?: string) => [
    word,
    `${word} `,
    word.toUpperCase(),
    word.slice(0, 8),
    `${word.slice(0, 6)}x${word.slice(7)}`,
    `${word.slice(0, 6)}${word.slice(7)} `,
    `"${word} plans"`,
    `plans ${word}`,
    `about ${word} -nothing`,
    `${word} or zzzz`,
    `#${tag}`,
    `#${tag.slice(0, 8)}`,
    tag,
    ...(name ? [name, `@${name}`] : []),
  ];
  const types = ['', '&type=all', '&type=timelines', '&type=users', '&type=hashtags'];
  const callers = [undefined, owner, randomUUID()];

  it('a public timeline seeded alike is found each of those ways', async () => {
    const shown = new Set<string>();
    for (const q of queries(visible.word, visible.tag)) {
      const body = (await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}`).expect(200)).body as { timelines: Array<{ id: string }>; hashtags: Array<{ name: string }> };
      if (body.timelines.some((t) => t.id === visible.id) || body.hashtags.some((t) => t.name === visible.tag)) shown.add(q);
    }
    // Every form finds it, typos included.
    expect(shown.size).toBe(queries(visible.word, visible.tag).length);
    const trending = (await h.call('get', '/api/hashtags/trending?limit=50').expect(200)).body as Array<{ name: string }>;
    expect(trending.map((t) => t.name)).toContain(visible.tag);
  });

  it.each(kinds.map(([kind]) => [kind]))('a %s timeline is never found, nor its words, for any caller', async (kind) => {
    const seeded = hidden.filter((x) => x.kind === kind);
    const { word, tag, name } = seeded[0]!;
    const ids = new Set(seeded.map((x) => x.id));
    for (const caller of callers) {
      for (const q of queries(word, tag, name)) {
        for (const type of types) {
          const res = await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}${type}`, { userId: caller }).expect(200);
          const text = JSON.stringify(res.body);
          expect({ q, type, found: [...ids].filter((id) => text.includes(id)) }).toEqual({ q, type, found: [] });
          expect({ q, type, leaks: [word, tag, name].filter((secret) => text.toLowerCase().includes(secret)) }).toEqual({ q, type, leaks: [] });
        }
      }
      const popular = JSON.stringify((await h.call('get', '/api/discover/popular/timeline?limit=50', { userId: caller }).expect(200)).body);
      const trending = JSON.stringify((await h.call('get', '/api/hashtags/trending?limit=50', { userId: caller }).expect(200)).body);
      for (const text of [popular, trending]) {
        expect([...ids].filter((id) => text.includes(id))).toEqual([]);
        expect([word, tag, name].filter((secret) => text.includes(secret))).toEqual([]);
      }
    }
    // About 250 searches, each a few milliseconds alone: a busy machine needs more than 20 s.
  }, 120_000);

  it('the read model keeps none of their words', async () => {
    const rows = await h.query<{ title: string; description: string; creator_name: string; document: string | null; hashtags: string[] }>(
      'SELECT title, description, creator_name, document, hashtags FROM timelines WHERE id = ANY($1::uuid[])',
      [hidden.map((x) => x.id)],
    );
    expect(rows).toHaveLength(hidden.length);
    for (const row of rows) expect(row).toEqual({ title: '', description: '', creator_name: '', document: null, hashtags: [] });
    const words = await h.query('SELECT word FROM search_words WHERE word = ANY($1::varchar[])', [hidden.flatMap((x) => [x.word, x.tag, x.name])]);
    expect(words).toEqual([]);
    expect(await h.query('SELECT name FROM hashtags WHERE name = ANY($1::varchar[])', [hidden.map((x) => x.tag)])).toEqual([]);
  });
});
