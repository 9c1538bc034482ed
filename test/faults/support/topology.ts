// What the fault and cluster suites share: the separate-process topology on ports of its own, and
// the checks that nothing acknowledged was lost or applied twice.
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type App, discoverApps, replicate, sharedEnv, supervise } from '../../../deploy/run-services.mjs';
import { freePort, type PostgresCluster, sleep } from './infra.js';

export type Topology = ReturnType<typeof supervise>;

export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check()); await sleep(100)) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
  }
}

export async function ready(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** The discovered apps on free ports (the machine may run another topology on the default ones). */
async function onFreePorts(apps: App[]): Promise<App[]> {
  const backends = await Promise.all(apps.filter((a) => a.kind !== 'gateway').map(async (a) => ({ ...a, port: await freePort() })));
  const urls = Object.fromEntries(backends.filter((a) => a.kind === 'service').map((a) => [`${a.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_SERVICE_URL`, `http://127.0.0.1:${a.port}`]));
  const gateway = apps.find((a) => a.kind === 'gateway')!;
  // The gateway's probes are on its internal port, a free one too.
  const internalPort = await freePort();
  return [...backends, { ...gateway, port: await freePort(), readyPort: internalPort, env: { ...gateway.env, ...urls, INTERNAL_PORT: String(internalPort) } }];
}

export interface RunningTopology {
  apps: App[];
  topology: Topology;
  gatewayUrl: string;
  stop(): Promise<void>;
}

/**
 * Every service, worker and the gateway as its own process (deploy/run-services.mjs, restarted
 * with backoff when one dies), on free ports, logging into `scratch/processes.log`; resolves once
 * the gateway is ready. `extraEnv` adds to the shared environment (NATS_URL may list servers).
 * With `replicas` above 1 (default TOPOLOGY_REPLICAS, else 1), that many of each behind HAProxy
 * (`replicate`), and `gatewayUrl` is HAProxy's public port.
 */
export async function startTopology(root: string, scratch: string, infra: { databaseUrl: string; natsUrl: string; busPrefix: string }, extraEnv: Record<string, string> = {}, replicas = Number(process.env.TOPOLOGY_REPLICAS || 1)): Promise<RunningTopology> {
  const webDist = join(scratch, 'web');
  const data = join(scratch, 'data');
  for (const dir of [webDist, data]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>topology</title>');

  const { NODE_OPTIONS: _jestOptions, ...inherited } = process.env;
  const env = sharedEnv({
    ...inherited,
    NODE_ENV: 'production',
    DATABASE_URL: infra.databaseUrl,
    NATS_URL: infra.natsUrl,
    BUS_PREFIX: infra.busPrefix,
    DATA_DIR: data,
    WEB_DIST: webDist,
    LOG_LEVEL: 'warn',
    STARTUP_WAIT_SECONDS: '600',
    SHUTDOWN_GRACE_SECONDS: '5',
    // The load comes from one address and a few people: the limits are not what is tried here.
    RATE_LIMIT_MAX: '1000000',
    AUTH_RATE_LIMIT_MAX: '1000',
    CONTENT_RATE_LIMIT_MAX: '1000000',
    ANONYMOUS_WRITE_LIMIT_MAX: '1000000',
    ...extraEnv,
  });
  const single = await onFreePorts(discoverApps(root, env));
  const ports = await Promise.all(Array.from({ length: replicas > 1 ? single.length * replicas * 2 : 0 }, () => freePort()));
  const apps = replicate(single, replicas, { env, nextPort: () => ports.shift()! });
  const log = createWriteStream(join(scratch, 'processes.log'));
  const topology = supervise(apps, { root, env, out: log, err: log, readyTimeoutMs: 120_000, restartDelays: { first: 500, max: 5_000, stableAfter: 30_000 } });
  const gateway = apps.find((a) => a.kind === 'balancer') ?? apps.find((a) => a.kind === 'gateway')!;
  try {
    await waitFor('the topology ready', () => ready(gateway.readyPort ?? gateway.port), 150_000);
  } catch (error) {
    // Nobody else can stop it: the caller never gets it.
    topology.stop();
    await topology.done;
    throw error;
  }
  return {
    apps,
    topology,
    gatewayUrl: `http://127.0.0.1:${gateway.port}`,
    async stop() {
      topology.stop();
      await topology.done;
    },
  };
}

/** Acknowledged comments (of these ids) on another person's timeline whose owner was not told. */
export async function untoldComments(postgres: PostgresCluster, commentIds: string[]): Promise<unknown[]> {
  return postgres.query(
    `SELECT c.id, c.timeline_id, t.creator_id
       FROM social.timeline_comments c JOIN timelines.timelines t ON t.id = c.timeline_id
      WHERE c.id = ANY($1::uuid[]) AND c.user_id <> t.creator_id
        AND NOT EXISTS (SELECT 1 FROM notifications.notification_activities a WHERE a.recipient_id = t.creator_id AND a.source_key = 'comment:' || c.id)`,
    [commentIds],
  );
}

/**
 * Event-kept counters that differ from a fresh count of what they count: a timeline's likes and
 * comments, a person's timelines and likes received. An event lost leaves one short, an event
 * applied twice one over.
 */
export async function counterDrift(postgres: PostgresCluster, personIds: string[]): Promise<unknown[]> {
  return [
    ...(await postgres.query(
      `SELECT t.id, t.likes_count, t.comments_count,
              (SELECT count(*)::int FROM social.timeline_likes l WHERE l.timeline_id = t.id) AS likes,
              (SELECT count(*)::int FROM social.timeline_comments c WHERE c.timeline_id = t.id) AS comments
         FROM timelines.timelines t
        WHERE t.likes_count <> (SELECT count(*) FROM social.timeline_likes l WHERE l.timeline_id = t.id)
           OR t.comments_count <> (SELECT count(*) FROM social.timeline_comments c WHERE c.timeline_id = t.id)`,
    )),
    ...(await postgres.query(
      `SELECT u.id, u.timelines_count, u.total_likes,
              (SELECT count(*)::int FROM timelines.timelines t WHERE t.creator_id = u.id) AS timelines,
              (SELECT count(*)::int FROM social.timeline_likes l JOIN timelines.timelines t ON t.id = l.timeline_id WHERE t.creator_id = u.id) AS likes
         FROM auth.users u
        WHERE u.id = ANY($1::uuid[])
          AND (u.timelines_count <> (SELECT count(*) FROM timelines.timelines t WHERE t.creator_id = u.id)
            OR u.total_likes <> (SELECT count(*) FROM social.timeline_likes l JOIN timelines.timelines t ON t.id = l.timeline_id WHERE t.creator_id = u.id))`,
      [personIds],
    )),
  ];
}

/** Services whose outbox still holds rows not yet published, with how many. */
export async function undispatchedOutboxes(postgres: PostgresCluster): Promise<Array<readonly [string, number]>> {
  const schemas = (await postgres.query<{ table_schema: string }>("SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox'")).map((r) => r.table_schema);
  const counts = await Promise.all(schemas.map(async (schema) => [schema, (await postgres.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".outbox WHERE dispatched_at IS NULL`))[0]!.n] as const));
  return counts.filter(([, n]) => n > 0);
}

/** Polls `probe` until it returns an empty list or `ms` pass; the last list and the seconds it took. */
export async function settle<T>(probe: () => Promise<T[]>, ms: number): Promise<{ remaining: T[]; seconds: number }> {
  const started = Date.now();
  let remaining = await probe();
  while (remaining.length > 0 && Date.now() - started < ms) {
    await sleep(1_000);
    remaining = await probe();
  }
  return { remaining, seconds: (Date.now() - started) / 1000 };
}

export function summarise(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => `${value}: ${count}`).join(', ');
}
