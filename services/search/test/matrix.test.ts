import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type SearchHarness, startHarness } from './harness.js';

/**
 * Who may call each route of the search service, read from its own OpenAPI document so a new
 * route without a row fails the suite; and input no handler should take (NUL characters, deep
 * JSON) on every route: a 400 that changes nothing.
 */
type Method = 'get' | 'post' | 'delete';
type Who = 'anonymous' | 'signedIn' | 'other';

interface Row {
  method: Method;
  route: string;
  path: () => string;
  body?: Record<string, unknown>;
  expected: Record<Who, number>;
}

let h: SearchHarness;
const owner = randomUUID();
const other = randomUUID();
let entryId = '';

const matrix: Row[] = [
  { method: 'get', route: '/api/search/enhanced', path: () => '/api/search/enhanced?q=walk', expected: { anonymous: 200, signedIn: 200, other: 200 } },
  { method: 'get', route: '/api/discover/popular/timeline', path: () => '/api/discover/popular/timeline', expected: { anonymous: 200, signedIn: 200, other: 200 } },
  { method: 'get', route: '/api/hashtags/trending', path: () => '/api/hashtags/trending', expected: { anonymous: 200, signedIn: 200, other: 200 } },
  { method: 'get', route: '/api/search/history', path: () => '/api/search/history', expected: { anonymous: 401, signedIn: 200, other: 200 } },
  { method: 'post', route: '/api/search/history', path: () => '/api/search/history', body: { query: 'walk' }, expected: { anonymous: 401, signedIn: 204, other: 204 } },
  // The entry is the owner's: another person is told it does not exist.
  { method: 'delete', route: '/api/search/history/{id}', path: () => `/api/search/history/${entryId}`, expected: { anonymous: 401, signedIn: 204, other: 404 } },
  { method: 'delete', route: '/api/search/history', path: () => '/api/search/history', expected: { anonymous: 401, signedIn: 204, other: 204 } },
];

const callerOf = (who: Who) => (who === 'anonymous' ? {} : { userId: who === 'signedIn' ? owner : other });

async function historyCount(): Promise<number> {
  return Number((await h.query<{ n: string }>('SELECT count(*) AS n FROM search_history'))[0]!.n);
}

beforeAll(async () => {
  h = await startHarness('searchmatrix');
});
afterAll(async () => {
  await h.close();
});

describe('authorization matrix of the search service', () => {
  it('has a row for every route it serves', async () => {
    const document = (await h.call('get', '/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(document.paths).flatMap(([route, ops]) => Object.keys(ops).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((m) => `${m} ${route}`));
    expect(served.sort()).toEqual(matrix.map((r) => `${r.method} ${r.route}`).sort());
  });

  it.each(matrix.map((row) => [`${row.method.toUpperCase()} ${row.route}`, row] as const))('%s', async (_name, row) => {
    for (const who of ['anonymous', 'other', 'signedIn'] as const) {
      // A fresh entry of the owner's for each caller to try to delete.
      await h.query(`INSERT INTO search_history (id, user_id, query, normalized_query) VALUES ($1, $2, $3, $3)`, [(entryId = randomUUID()), owner, `entry ${entryId}`]);
      const request = h.call(row.method, row.path(), callerOf(who));
      const res = await (row.body ? request.send(row.body) : request);
      expect({ who, status: res.status }).toEqual({ who, status: row.expected[who] });
    }
  });
});

describe('hostile input on every search route', () => {
  const NESTED = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);

  it.each(matrix.map((row) => [`${row.method.toUpperCase()} ${row.route}`, row] as const))('%s refuses NUL characters and deep JSON, changing nothing', async (_name, row) => {
    await h.query(`INSERT INTO search_history (id, user_id, query, normalized_query) VALUES ($1, $2, $3, $3)`, [(entryId = randomUUID()), owner, `kept ${entryId}`]);
    const before = await historyCount();
    const separator = row.path().includes('?') ? '&' : '?';
    const nulQuery = await h.call(row.method, `${row.path()}${separator}q=a%00b`, { userId: owner });
    expect({ status: nulQuery.status, message: nulQuery.body.message }).toEqual({ status: 400, message: 'Text must not contain NUL characters' });
    if (row.method !== 'get') {
      const nulBody = await h.call(row.method, row.path(), { userId: owner }).send({ query: 'a\u0000b' });
      expect(nulBody.status).toBe(400);
      const deep = await h.call(row.method, row.path(), { userId: owner }).set('content-type', 'application/json').send(NESTED);
      expect(deep.status).toBe(400);
    }
    expect(await historyCount()).toBe(before);
  });
});
