import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { signIdentity } from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, freePort, type TestDatabase, testBusPrefix, testNatsUrl } from '@timeliner/platform/testing';

const root = path.resolve(import.meta.dirname, '..', '..');
const previous = 'p'.repeat(40);
const next = 'n'.repeat(40);


/**
 * Rotating the identity key without refusing anyone (k8s/OPERATIONS.md): a service process told
 * INTERNAL_SECRET and INTERNAL_SECRET_ACCEPTED takes what a gateway signed with either, whichever
 * of the two a not-yet-restarted gateway still uses, and nothing else.
 */
describe('identity key rotation', () => {
  let db: TestDatabase;
  let child: ChildProcess;
  let base: string;
  const prefix = testBusPrefix('rotation');

  beforeAll(async () => {
    db = await createTestDatabase('rotation');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [path.join(root, 'services/search/dist/main.js')], {
      cwd: root,
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: db.url,
        NATS_URL: testNatsUrl(),
        BUS_PREFIX: prefix,
        INTERNAL_SECRET: next,
        INTERNAL_SECRET_ACCEPTED: previous,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
    });
    for (const deadline = Date.now() + 60_000; ; ) {
      const ready = await fetch(`${base}/health/ready`).then((res) => res.ok, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error('the search service did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 75_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await db?.drop();
    await deleteBusStreams(testNatsUrl(), prefix);
  });

  const call = (key: string) => {
    const url = '/api/hashtags/trending?limit=3';
    const requestId = randomUUID();
    const headers = signIdentity(key, { userId: randomUUID(), sessionId: randomUUID(), clientIp: '10.1.2.3' }, { requestId, method: 'GET', url });
    return fetch(`${base}${url}`, { headers: { ...headers, 'x-request-id': requestId } });
  };

  it('accepts identities signed with the new key and with the previous one', async () => {
    expect((await call(next)).status).toBe(200);
    expect((await call(previous)).status).toBe(200);
  });

  it('refuses an identity signed with any other key', async () => {
    const res = await call('o'.repeat(40));
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toBe('Invalid internal identity');
  });
});
