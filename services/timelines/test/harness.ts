import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, type DescMessage, fromBinary, type MessageInitShape, type MessageShape, toBinary } from '@bufbuild/protobuf';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createEventBus, createLogger, type EventBus, FileMailSender, type MailSender, serveRpc, signIdentity, type Subscription } from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, testBusPrefix, testNatsUrl, type TestDatabase } from '@timeliner/platform/testing';
import { AuthEvents, AuthRpc, type EventDefinition } from '@timeliner/proto';
import { startTimelinesService, timelinesSchema } from '../src/index.js';
import type { RunningService } from '@timeliner/platform';

/** Caller as the gateway would present it. */
export interface As {
  userId?: string;
  sessionId?: string;
  ip?: string;
}

export interface Person {
  userId: string;
  sessionId: string;
  username: string;
  displayName: string;
  email: string;
}

export type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

export interface HarnessOptions {
  /** Real NATS JetStream instead of the in-process bus. */
  nats?: boolean;
  /** Replaces the file mail sender. */
  mail?: MailSender;
  /** Invitation e-mails per person per hour and day (the service's defaults otherwise). */
  invitationMailLimits?: { perHour: number; perDay: number };
}

export const PUBLIC_ORIGIN = 'https://timeliner.test';

export interface TimelinesHarness {
  service: RunningService;
  db: TestDatabase;
  bus: EventBus;
  prefix: string;
  mailDir: string;
  /** The identity secret the gateway signs with: another service started on this bus can share it. */
  secret: string;
  /** A request with identity headers signed as the gateway would. */
  call(method: Method, path: string, as?: As): request.Test;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Someone with an account: the auth lookup (served here on the bus, as the auth service does)
   * knows the address, and UserRegistered reached the service's read model through the bus.
   */
  register(overrides?: Partial<Omit<Person, 'userId' | 'sessionId'>>, options?: { announce?: boolean }): Promise<Person>;
  /** Publishes an event on the bus as another service's outbox relay would; returns its id. */
  publish<S extends DescMessage>(definition: EventDefinition<S>, payload: MessageInitShape<S>, id?: string): Promise<string>;
  /** Events this service wrote to its outbox, decoded, in order. */
  events<S extends DescMessage>(definition: EventDefinition<S>): Promise<Array<MessageShape<S>>>;
  /** The .eml files written so far, oldest first. */
  mails(): Promise<string[]>;
  waitFor(predicate: () => Promise<boolean> | boolean, ms?: number): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

export async function startHarness(label: string, options: HarnessOptions = {}): Promise<TimelinesHarness> {
  const db = await createTestDatabase(label, { schemas: [timelinesSchema] });
  const logger = createLogger('timelines-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const prefix = testBusPrefix(label);
  const bus = await createEventBus({ natsUrl: options.nats ? testNatsUrl() : undefined, prefix, logger });
  const secret = randomBytes(32).toString('hex');
  const mailDir = await mkdtemp(join(tmpdir(), `${label}-mail-`));
  const mail = options.mail ?? new FileMailSender({ dir: mailDir });

  const accounts = new Map<string, Person>();
  const lookup: Subscription = await serveRpc(bus, AuthRpc.LookupUser, 'auth', async ({ email }) => {
    const person = accounts.get(email.trim().toLowerCase());
    return person ? { found: true, userId: person.userId, username: person.username, displayName: person.displayName } : { found: false };
  });

  const service = await startTimelinesService({ databaseUrl: db.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1', mail, publicOrigin: PUBLIC_ORIGIN, lookupTimeoutMs: 2_000,
    ...(options.invitationMailLimits ? { invitationMailLimits: options.invitationMailLimits } : {}),
  });
  const agent = request(service.url);
  const dataSource = service.app.get(DataSource);

  const waitFor = async (predicate: () => Promise<boolean> | boolean, ms = 5_000) => {
    const deadline = Date.now() + ms;
    while (!(await predicate())) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  const publish = async <S extends DescMessage>(definition: EventDefinition<S>, payload: MessageInitShape<S>, id = randomUUID()) => {
    await bus.publish({
      subject: definition.subject,
      meta: { id, type: definition.type, version: definition.version, occurredAt: new Date().toISOString(), requestId: `test-${id.slice(0, 8)}` },
      data: toBinary(definition.schema, create(definition.schema, payload)),
    });
    return id;
  };

  const h: TimelinesHarness = {
    service,
    db,
    bus,
    prefix,
    mailDir,
    secret,
    call(method, path, as = {}) {
      const requestId = `test-${randomBytes(6).toString('hex')}`;
      const headers = signIdentity(secret, { userId: as.userId, sessionId: as.sessionId, clientIp: as.ip ?? '198.51.100.1' }, { requestId, method: method.toUpperCase(), url: path });
      return agent[method](path).set(headers).set('x-request-id', requestId);
    },
    query: (sql, params) => dataSource.query(sql, params),
    async register(overrides = {}, { announce = true } = {}) {
      counter += 1;
      const tag = `${randomBytes(3).toString('hex')}${counter}`;
      const person: Person = {
        userId: randomUUID(),
        sessionId: randomUUID(),
        username: `user_${tag}`,
        displayName: `Person ${tag}`,
        email: `person_${tag}@example.com`,
        ...overrides,
      };
      accounts.set(person.email.toLowerCase(), person);
      // Without the announcement only the auth lookup knows the person (the event is still on its way).
      if (!announce) return person;
      await publish(AuthEvents.UserRegistered, { userId: person.userId, username: person.username, displayName: person.displayName, email: person.email });
      await waitFor(async () => (await dataSource.query('SELECT 1 FROM users WHERE id = $1', [person.userId])).length === 1);
      return person;
    },
    publish,
    async events(definition) {
      const rows: Array<{ payload: Buffer }> = await dataSource.query('SELECT payload FROM outbox WHERE subject = $1 ORDER BY position', [definition.subject]);
      return rows.map((r) => fromBinary(definition.schema, r.payload));
    },
    async mails() {
      const files = (await readdir(mailDir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
      return Promise.all(files.map((f) => readFile(join(mailDir, f), 'utf8')));
    },
    waitFor,
    async close() {
      await service.close();
      await lookup.unsubscribe();
      await bus.close();
      await db.drop();
      await rm(mailDir, { recursive: true, force: true });
      if (options.nats) await deleteBusStreams(testNatsUrl(), prefix);
    },
  };
  return h;
}

/** The invitation link in an e-mail (quoted-printable soft breaks undone). */
export const linkIn = (raw: string): string | undefined => {
  const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  return unfolded.match(new RegExp(`${PUBLIC_ORIGIN.replace(/\./g, '\\.')}/invite/([A-Za-z0-9_-]{43})`))?.[1];
};

export const as = (p: Pick<Person, 'userId' | 'sessionId'>): As => ({ userId: p.userId, sessionId: p.sessionId });
