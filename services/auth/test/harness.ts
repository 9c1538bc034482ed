import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createEventBus, createLogger, type EventBus, FileMailSender, signIdentity } from '@timeliner/platform';
import { createTestDatabase, testBusPrefix, testNatsUrl, type TestDatabase } from '@timeliner/platform/testing';
import { startAuthService, authSchema } from '../src/index.js';
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
  /** The e-mails the service wrote (file mail adapter), oldest first. */
  mails(): Promise<Mail[]>;
  /** Waits for the n-th e-mail to an address (1 = the first). */
  waitForMail(to: string, nth?: number): Promise<Mail>;
  close(): Promise<void>;
}

export interface Mail {
  file: string;
  to: string;
  subject: string;
  /** The message body, quoted-printable undone. */
  text: string;
}

const decodeMail = (file: string, raw: string): Mail => {
  const normalised = raw.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = normalised.slice(0, end).replace(/\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  let text = normalised.slice(end + 2);
  if (/quoted-printable/i.test(header('Content-Transfer-Encoding'))) {
    text = Buffer.from(text.replace(/=\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
  }
  return { file, to: header('To'), subject: header('Subject'), text };
};

export async function startHarness(label: string, options: { nats?: boolean; clock?: () => number; totpSecretKey?: Buffer } = {}): Promise<AuthHarness> {
  const db = await createTestDatabase(label, { schemas: [authSchema] });
  const logger = createLogger('auth-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const prefix = testBusPrefix(label);
  const bus = await createEventBus({ natsUrl: options.nats ? testNatsUrl() : undefined, prefix, logger });
  const secret = randomBytes(32).toString('hex');
  const mailDir = await mkdtemp(join(tmpdir(), `${label}-mail-`));
  const mail = new FileMailSender({ dir: mailDir });
  const service = await startAuthService({ databaseUrl: db.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1', mail, publicOrigin: 'http://app.test', clock: options.clock, totpSecretKey: options.totpSecretKey });
  const mails = async (): Promise<Mail[]> => {
    const names = (await readdir(mailDir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml')).sort();
    return Promise.all(names.map(async (name) => decodeMail(name, await readFile(join(mailDir, name), 'utf8'))));
  };
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
    mails,
    async waitForMail(to, nth = 1) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = (await mails()).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
        if (found.length >= nth) return found[nth - 1]!;
        if (Date.now() > deadline) throw new Error(`no e-mail number ${nth} to ${to}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      await service.close();
      await mail.close();
      await bus.close();
      await db.drop();
      await rm(mailDir, { recursive: true, force: true });
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
