import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { createEventBus } from '../../src/bus/bus.factory.js';
import type { EventBus } from '../../src/bus/event-bus.port.js';
import { idsAfter, type ReadModelRebuildResponder, serveReadModelRebuild } from '../../src/bus/read-model-rebuild.js';
import { READ_MODEL_SOCKET, serveReadModelSocket } from '../../src/bus/read-model-socket.js';
import { SnakeNamingStrategy } from '../../src/database/snake-naming.strategy.js';
import { createLogger } from '../../src/logging/logger.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/postgres.js';

/**
 * `npm run read-model -- rebuild <service>` in the single-process mode (`npm start`: in-process
 * bus, no NATS): the command reaches the running process through its socket under DATA_DIR, the
 * service rebuilds, the command prints the progress and exits 0. Real Postgres, the real command.
 */
const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../../..');
const schema = 'socket_svc';
const logger = createLogger('read-model-socket', 'silent');
let db: TestDatabase;
let dataSource: DataSource;
let bus: EventBus;
let dataDir: string;
let responder: ReadModelRebuildResponder;
let socket: { close(): Promise<void> };
const producer = new Map<string, { id: string; name: string }>();

beforeAll(async () => {
  db = await createTestDatabase('rebuildsocket');
  dataSource = new DataSource({ type: 'postgres', url: db.url, schema, entities: [], namingStrategy: new SnakeNamingStrategy() });
  await dataSource.initialize();
  await dataSource.query(`CREATE SCHEMA "${schema}"`);
  await dataSource.query(`CREATE TABLE "${schema}"."copies" (id uuid PRIMARY KEY, name text NOT NULL)`);
  for (let i = 0; i < 120; i++) {
    const id = randomUUID();
    producer.set(id, { id, name: `row ${i}` });
  }
  bus = await createEventBus({ prefix: 'tlsocket', logger });
  const sorted = () => [...producer.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  responder = await serveReadModelRebuild(bus, {
    service: 'copysvc',
    dataSource,
    logger,
    pageSize: 50,
    models: [
      {
        name: 'copies',
        fetchPage: async (afterId: string, limit: number) => ({ rows: sorted().filter((r) => r.id > afterId).slice(0, limit), total: producer.size }),
        fetchIds: async (ids: string[]) => ids.map((id) => producer.get(id)).filter((r) => r !== undefined),
        idOf: (row: { id: string }) => row.id,
        apply: async (manager, row: { id: string; name: string }) => {
          await manager.query(`INSERT INTO "${schema}".copies (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name`, [row.id, row.name]);
        },
        localIds: (manager, afterId, limit) => idsAfter(manager, `"${schema}".copies`, afterId, limit),
        remove: async (manager, id) => {
          await manager.query(`DELETE FROM "${schema}".copies WHERE id = $1`, [id]);
        },
      },
    ],
  });
  dataDir = await mkdtemp(join(tmpdir(), 'read-model-socket-'));
  socket = await serveReadModelSocket(bus, join(dataDir, READ_MODEL_SOCKET), logger);
});

afterAll(async () => {
  await socket?.close();
  await responder?.unsubscribe();
  await bus?.close();
  await dataSource?.destroy();
  await db?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const command = (...args: string[]) => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.NATS_URL;
  delete env.NODE_OPTIONS;
  return run(process.execPath, ['scripts/read-model.mjs', 'rebuild', ...args], { cwd: root, env, timeout: 60_000 });
};

describe('read-model rebuild in the single-process mode', () => {
  it('reaches the running process through its socket, rebuilds from empty and prints the progress', async () => {
    await dataSource.query(`INSERT INTO "${schema}".copies (id, name) VALUES ($1, 'gone long ago')`, [randomUUID()]);
    const { stdout } = await command('copysvc', '--model', 'copies');
    expect(stdout).toMatch(/copysvc: rebuilding copies \(rebuild [0-9a-f-]{36}\)/);
    expect(stdout).toMatch(/copysvc\/copies 120\/120 100\.0% \d+ rows\/s done in [\d.]+s, 1 removed/);
    const copy = (await dataSource.query(`SELECT id, name FROM "${schema}".copies ORDER BY id`)) as Array<{ id: string; name: string }>;
    expect(copy).toEqual([...producer.values()].sort((a, b) => (a.id < b.id ? -1 : 1)));
  });

  it('says which models a service has when asked for another, and exits 1', async () => {
    const failed = await command('copysvc', '--model', 'nonsense').catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toMatch(/has no read model "nonsense" \(it has copies\)/);
  });
});
