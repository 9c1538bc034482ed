import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type NotificationsHarness, startHarness } from './harness.js';

/**
 * Input no handler can store or should walk, sent to every route of the notifications service as
 * its own OpenAPI document lists them (a new route is covered without being named). Each is a 4xx
 * with a clear message and changes nothing.
 */
type Method = 'get' | 'post' | 'put' | 'delete';
let h: NotificationsHarness;
const me = randomUUID();

const NESTED = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);

async function tableCounts(): Promise<string> {
  const tables: Array<{ name: string }> = await h.query("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN ('inbox', 'migrations') ORDER BY 1");
  const counts = await Promise.all(tables.map(async ({ name }) => `${name}=${(await h.query<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`))[0]!.n}`));
  return counts.join(' ');
}

async function operations(): Promise<Array<{ method: Method; path: string }>> {
  const document = (await h.call('get', '/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([template, ops]) =>
    Object.keys(ops)
      .filter((m): m is Method => ['get', 'post', 'put', 'delete'].includes(m))
      .map((method) => ({ method, path: template.replace(/\{[^}]+\}/g, () => randomUUID()) })),
  );
}

beforeAll(async () => {
  h = await startHarness('notifhostile');
});
afterAll(() => h?.close());

describe('hostile input on every notifications route', () => {
  it('answers a NUL character in the body with 400 and changes nothing', async () => {
    const before = await tableCounts();
    const writes = (await operations()).filter((op) => op.method !== 'get');
    expect(writes.length).toBeGreaterThanOrEqual(5);
    for (const op of writes) {
      const res = await h.call(op.method, op.path, { userId: me }).send({ endpoint: 'https://push.example.com/\u0000', likes: { inApp: false } });
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

  it('answers cursors the database could not compare with 400', async () => {
    const cursor = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');
    for (const key of [['2026-13-45T99:99:99.000000Z', randomUUID()], ['2026-11-25T00:00:00.000000Z', 'not-a-uuid'], [1, 2, 3], []]) {
      const res = await h.call('get', `/api/notifications?cursor=${cursor(key)}`, { userId: me });
      expect([res.status, res.body.message]).toEqual([400, 'Invalid cursor']);
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

  it('marks answers that depend on the caller no-store', async () => {
    for (const path of ['/api/notifications', '/api/notifications/unread-count', '/api/notifications/preferences']) {
      expect((await h.call('get', path, { userId: me }).expect(200)).headers['cache-control']).toBe('no-store');
    }
  });
});
