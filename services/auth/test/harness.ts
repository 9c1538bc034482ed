import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createEventBus, createLogger, type EventBus, signIdentity } from '@timeliner/platform';
import { createTestDatabase, testBusPrefix, testNatsUrl, type TestDatabase } from '@timeliner/platform/testing';
import { startAuthService } from '../src/index.js';
import type { RunningService } from '@timeliner/platform';

/** Caller as the gateway would present it. */
export interface As {
  userId?: string;
  sessionId?: string;
  ip?: string;
}

export interface AuthHarness {
  service: RunningService;
  db: TestDatabase;
  bus: EventBus;
  prefix: string;
  secret: string;
  /** A request with identity headers signed as the gateway would. */
  call(method: 'get' | 'post' | 'put' | 'delete' | 'patch', path: string, as?: As): request.Test;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function startHarness(label: string, options: { nats?: boolean } = {}): Promise<AuthHarness> {
  const db = await createTestDatabase(label);
  const logger = createLogger('auth-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const prefix = testBusPrefix(label);
  const bus = await createEventBus({ natsUrl: options.nats ? testNatsUrl() : undefined, prefix, logger });
  const secret = randomBytes(32).toString('hex');
  const service = await startAuthService({ databaseUrl: db.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' });
  const agent = request(service.url);
  return {
    service,
    db,
    bus,
    prefix,
    secret,
    call(method, path, as = {}) {
      const requestId = `test-${randomBytes(6).toString('hex')}`;
      const headers = signIdentity(secret, { userId: as.userId, sessionId: as.sessionId, clientIp: as.ip ?? '198.51.100.1' }, { requestId, method: method.toUpperCase(), url: path });
      return agent[method](path).set(headers).set('x-request-id', requestId);
    },
    async query(sql, params) {
      return service.app.get((await import('typeorm')).DataSource).query(sql, params);
    },
    async close() {
      await service.close();
      await bus.close();
      await db.drop();
    },
  };
}

let counter = 0;
/** A fresh, valid registration body. */
export const newUser = (overrides: Record<string, unknown> = {}) => {
  counter += 1;
  const tag = `${randomBytes(3).toString('hex')}${counter}`;
  return { username: `user_${tag}`, email: `user_${tag}@example.com`, password: 'correct horse', displayName: 'Test User', ...overrides };
};
