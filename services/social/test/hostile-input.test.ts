import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type SocialHarness, startHarness } from './harness.js';

/**
 * Input no handler can store or should walk, sent to every route of the social service read from
 * its own OpenAPI document (a new route is covered without being named): a NUL character in the
 * body or the query, cursors the database could not compare, and JSON nested 20,000 levels deep.
 * Each is a 4xx with a clear message and changes nothing.
 */
type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';
let h: SocialHarness;
let me: string;
let postId: string;

const NESTED = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);

async function tableCounts(): Promise<string> {
  const tables: Array<{ name: string }> = await h.query("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN ('inbox', 'migrations') ORDER BY 1");
  const counts = await Promise.all(tables.map(async ({ name }) => `${name}=${(await h.query<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`))[0]!.n}`));
  return counts.join(' ');
}

/** Every operation, its path parameters filled with things that exist (the post, a visible timeline, a known person). */
async function operations(): Promise<Array<{ method: Method; path: string }>> {
  const document = (await h.call('get', '/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([template, ops]) =>
    Object.keys(ops)
      .filter((m): m is Method => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((method) => ({
        method,
        path: template.replace(/\{[^}]+\}/g, (param) =>
          template.startsWith('/api/posts') ? postId : template.startsWith('/api/users') ? h.world.collaborator : param === '{id}' ? h.world.publicTimeline : randomUUID()),
      })),
  );
}

beforeAll(async () => {
  h = await startHarness('socialhostile');
  me = h.world.stranger;
  await h.register(me, 'sam', 'Sam Stranger');
  await h.register(h.world.collaborator, 'cleo', 'Cleo Collaborator');
  postId = (await h.call('post', '/api/posts', { userId: me }).send({ content: 'Target' }).expect(201)).body.id;
});
afterAll(() => h.close());

describe('hostile input on every social route', () => {
  it('answers a NUL character in the body with 400 and changes nothing', async () => {
    const before = await tableCounts();
    const writes = (await operations()).filter((op) => op.method !== 'get');
    expect(writes.length).toBeGreaterThan(10);
    for (const op of writes) {
      const res = await h.call(op.method, op.path, { userId: me }).send({ content: 'x\u0000', name: 'a\u0000', reason: 'spam', description: '\u0000' });
      expect({ ...op, status: res.status, message: res.body.message }).toEqual({ ...op, status: 400, message: 'Text must not contain NUL characters' });
    }
    expect(await tableCounts()).toBe(before);
  });

  it('answers a NUL character in the query with 400', async () => {
    for (const op of (await operations()).filter((o) => o.method === 'get')) {
      const res = await h.call('get', `${op.path}?cursor=%00&limit=1`, { userId: me });
      expect({ ...op, status: res.status, message: res.body.message }).toEqual({ ...op, status: 400, message: 'Text must not contain NUL characters' });
    }
  });

  it('answers cursors the database could not compare with 4xx, never 5xx', async () => {
    const cursor = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');
    const id = '3f2b1c4d-1111-4222-8333-444455556666';
    const hostile = [
      cursor(['2026-13-45T99:99:99.000000Z', id]),
      cursor([2 ** 53 - 1, '2026-11-25T00:00:00.000000Z', id]),
      cursor(['2026-11-25T00:00:00.000000Z', 2 ** 53 - 1, '2026-02-30T00:00:00.000000Z', id]),
      cursor(['0001-01-01T00:00:00.000000Z', -(2 ** 40), '2026-11-25T00:00:00.000000Z', id]),
      cursor(['9999-12-31T23:59:59.999999Z', 1, '2026-11-25T00:00:00.000000Z', id]),
    ];
    for (const op of (await operations()).filter((o) => o.method === 'get')) {
      for (const c of hostile) {
        const res = await h.call('get', `${op.path}?cursor=${c}`, { userId: me });
        expect({ ...op, cursor: c, status: res.status < 500 ? 'not 5xx' : res.status }).toEqual({ ...op, cursor: c, status: 'not 5xx' });
      }
    }
  });

  it('answers JSON nested 20,000 levels deep with 400 and changes nothing', async () => {
    const before = await tableCounts();
    for (const op of (await operations()).filter((o) => o.method !== 'get')) {
      const res = await h.call(op.method, op.path, { userId: me }).set('content-type', 'application/json').send(NESTED);
      expect({ ...op, status: res.status }).toEqual({ ...op, status: 400 });
      expect(res.body.message).toMatch(/nested more than 32 levels|Malformed JSON body/);
    }
    expect(await tableCounts()).toBe(before);
  });
});

describe('answers that depend on the caller', () => {
  it('are marked no-store, so no shared cache keeps one for somebody else', async () => {
    const feed = await h.call('get', '/api/feed', { userId: me }).expect(200);
    expect(feed.headers['cache-control']).toBe('no-store');
    const post = await h.call('get', `/api/posts/${postId}`, { userId: me }).expect(200);
    expect(post.headers['cache-control']).toBe('no-store');
  });
});
