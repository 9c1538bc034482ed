import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { createEventBus, createLogger, type EventBus, FileMailSender, loadConfig, type RunningService } from '@timeliner/platform';
import { createTestDatabase, type TestDatabase, testBusPrefix, testNatsUrl } from '@timeliner/platform/testing';
import { startAuthService } from '../../services/auth/src/index.js';
import { createGateway, GatewayConfig, RouteTable } from '../../gateway/src/index.js';

/**
 * A session ended through one gateway replica is refused at once by every replica, even where
 * its answer was cached: the auth service announces each revocation (`SessionRevoked`) and every
 * gateway drops it from its cache. Real auth service, Postgres, NATS and two gateways.
 */
describe('session revocation across gateway replicas', () => {
  const logger = createLogger('revocation-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const prefix = testBusPrefix('revocation');
  const secret = randomBytes(32).toString('hex');
  let db: TestDatabase;
  const buses: EventBus[] = [];
  let auth: RunningService;
  let mail: FileMailSender;
  const gateways: Array<{ app: INestApplication; url: string }> = [];

  beforeAll(async () => {
    db = await createTestDatabase('revocation');
    for (let i = 0; i < 3; i += 1) buses.push(await createEventBus({ natsUrl: testNatsUrl(), prefix, logger }));
    mail = new FileMailSender({ dir: mkdtempSync(join(tmpdir(), 'revocation-mail-')) });
    auth = await startAuthService({ databaseUrl: db.url, bus: buses[0]!, logger, identitySecret: secret, port: 0, host: '127.0.0.1', mail });
    const services = Object.fromEntries(new RouteTable().services().map((name) => [name, auth.url]));
    for (const bus of buses.slice(1)) {
      const config = loadConfig(GatewayConfig, { PORT: '0', INTERNAL_PORT: '0', LOG_LEVEL: 'silent' });
      const app = await createGateway({ config, logger, bus, services, identitySecret: secret, webDist: tmpdir() });
      await app.listen({ port: 0, host: '127.0.0.1' });
      gateways.push({ app, url: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` });
    }
  }, 60_000);
  afterAll(async () => {
    for (const gateway of gateways) await gateway.app.close();
    await auth?.close();
    await mail?.close();
    for (const bus of buses) await bus.close();
    await db?.drop();
  });

  const call = async (gateway: number, method: string, path: string, token?: string, body?: unknown, userAgent = 'Test Browser') => {
    const response = await fetch(`${gateways[gateway]!.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'user-agent': userAgent, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  };
  /** Milliseconds until both replicas refuse the token (each had it cached). */
  const refusedEverywhere = async (token: string) => {
    const start = Date.now();
    for (;;) {
      const statuses = [(await call(0, 'GET', '/api/auth/me', token)).status, (await call(1, 'GET', '/api/auth/me', token)).status];
      if (statuses.every((status) => status === 401)) return Date.now() - start;
      if (Date.now() - start > 3_000) throw new Error(`still answered ${statuses.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('one session signed out, then every other one, refused on both replicas at once', async () => {
    const tag = randomBytes(4).toString('hex');
    const person = { username: `rev_${tag}`, email: `rev_${tag}@example.com`, password: 'lantern-over-water', displayName: 'Rev Person' };
    const mine = (await call(0, 'POST', '/api/auth/register', undefined, person)).body as { session: { token: string } };
    const tokenOf = async (gateway: number, userAgent: string) =>
      ((await call(gateway, 'POST', '/api/auth/login', undefined, { login: person.username, password: person.password }, userAgent)).body as { session: { token: string } }).session.token;
    const laptop = await tokenOf(1, 'Laptop Browser');
    const tablet = await tokenOf(1, 'Tablet Browser');
    // Both replicas have every token's answer cached.
    for (const token of [mine.session.token, laptop, tablet]) for (const gateway of [0, 1]) expect((await call(gateway, 'GET', '/api/auth/me', token)).status).toBe(200);

    const sessions = (await call(0, 'GET', '/api/auth/sessions', mine.session.token)).body as unknown as Array<{ id: string; current: boolean }>;
    expect(sessions).toHaveLength(3);
    const laptopId = (await call(1, 'GET', '/api/auth/sessions', laptop)).body as unknown as Array<{ id: string; current: boolean }>;
    const laptopSession = laptopId.find((session) => session.current)!.id;

    expect((await call(0, 'DELETE', `/api/auth/sessions/${laptopSession}`, mine.session.token)).status).toBe(204);
    expect(await refusedEverywhere(laptop)).toBeLessThan(1_000);
    expect((await call(1, 'GET', '/api/auth/me', tablet)).status).toBe(200);

    expect((await call(1, 'DELETE', '/api/auth/sessions', mine.session.token)).body).toEqual({ signedOutSessions: 1 });
    expect(await refusedEverywhere(tablet)).toBeLessThan(1_000);
    for (const gateway of [0, 1]) expect((await call(gateway, 'GET', '/api/auth/me', mine.session.token)).status).toBe(200);
  }, 60_000);
});
