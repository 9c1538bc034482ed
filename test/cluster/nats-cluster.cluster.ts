// The separate-process topology (every service, worker and the gateway as its own process) on a
// NATS JetStream cluster of three servers on loopback, every stream at three replicas
// (STREAM_REPLICAS=3), under a steady write load through the gateway. One server is killed with
// SIGKILL (the leader of the event stream, the worst case), started again and caught up; then
// another is killed and started again. Afterwards:
//   - every acknowledged write is in the database;
//   - every counter kept from events equals a fresh count of what it counts: no event lost and
//     none applied twice (a redelivery after a leader change is deduplicated by the consumers);
//   - no event was dead-lettered, every outbox drained;
//   - nothing was answered 500; every refusal was a 503 with Retry-After (or no answer), and the
//     longest stretch of refusals is printed with the times the cluster took to recover.
//
//   npm run test:cluster   (builds, then runs this file; about three minutes on the 2-core machine)
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { DeadLetterAdmin } from '@timeliner/platform';
import { PostgresCluster, sleep } from '../faults/support/infra.js';
import { counterDrift, type RunningTopology, settle, startTopology, summarise, undispatchedOutboxes } from '../faults/support/topology.js';
import { WriteLoad } from '../faults/support/write-load.js';
import { NatsCluster } from './support/nats-cluster.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUS_PREFIX = 'cluster';
/** How long each killed server stays down while the load goes on. */
const DOWN_SECONDS = Number(process.env.CLUSTER_DOWN_SECONDS ?? 10);

interface Fault {
  fault: string;
  leaderBefore: string;
  leaderAfter: string;
  caughtUpSeconds: number;
  recoverySeconds: number;
}

describe('the topology on a three-server NATS cluster', () => {
  let scratch: string;
  let postgres: PostgresCluster;
  let nats: NatsCluster;
  let running: RunningTopology;
  let load: WriteLoad;
  let streams: string[] = [];

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'timeliner-cluster-'));
    chmodSync(scratch, 0o755);
    postgres = await PostgresCluster.create(join(scratch, 'postgres'), join(scratch, 'infra.log'));
    nats = await NatsCluster.start(join(scratch, 'nats'), join(scratch, 'infra.log'));
    running = await startTopology(root, scratch, { databaseUrl: postgres.url, natsUrl: nats.url, busPrefix: BUS_PREFIX }, { STREAM_REPLICAS: '3' });
    load = new WriteLoad(running.gatewayUrl);
    await load.signUp(8);
    const nc = await connect({ servers: nats.url.split(',') });
    try {
      const jsm = await jetstreamManager(nc);
      for await (const name of jsm.streams.names()) streams.push(name);
    } finally {
      await nc.close();
    }
    streams = streams.filter((name) => name.startsWith(BUS_PREFIX.toUpperCase()));
  }, 300_000);

  afterAll(async () => {
    await load?.stop();
    await running?.stop();
    await nats?.stop();
    try {
      postgres?.stop('fast');
    } catch {
      // already stopped
    }
    if (process.env.FAULTS_KEEP) console.log(`kept ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('keeps every stream at three replicas', async () => {
    expect(streams.length).toBeGreaterThanOrEqual(2);
    for (const stream of streams) expect((await nats.streamCluster(stream)).replicasConfigured).toBe(3);
  });

  it('loses nothing and doubles nothing when one server, then another, is killed under a write load', async () => {
    const events = `${BUS_PREFIX.toUpperCase()}_EVENTS`;
    expect(streams).toContain(events);
    load.start(4, 20);
    await load.recovered(Date.now(), 60_000);
    await sleep(3_000);

    const faults: Fault[] = [];
    const first = (await nats.streamCluster(events)).leader;
    // The event stream's leader first; then a server that is not the one killed before.
    for (const victim of [first, nats.nodes.map((n) => n.name).find((name) => name !== first)!]) {
      const node = nats.node(victim);
      const killedAt = Date.now();
      await node.kill();
      await sleep(DOWN_SECONDS * 1000);
      await node.start();
      const backAt = Date.now();
      await nats.waitUntilCaughtUp(streams, 120_000);
      faults.push({
        fault: `kill -9 ${victim} for ${DOWN_SECONDS} s`,
        leaderBefore: victim === first ? first : '',
        leaderAfter: (await nats.streamCluster(events)).leader,
        caughtUpSeconds: (Date.now() - backAt) / 1000,
        recoverySeconds: (await load.recovered(killedAt)) / 1000,
      });
      await sleep(3_000);
    }
    await load.stop();

    const refusalsBySecond = new Set(load.refusals.map((r) => Math.floor(r.at / 1000)));
    let longest = 0;
    for (const second of refusalsBySecond) {
      let run = 1;
      while (refusalsBySecond.has(second + run)) run++;
      longest = Math.max(longest, run);
    }
    console.log(
      [
        'fault | event-stream leader after | replicas caught up after restart (s) | every kind of write acknowledged again after the kill (s)',
        ...faults.map((f) => `${f.fault} | ${f.leaderAfter} | ${f.caughtUpSeconds.toFixed(1)} | ${f.recoverySeconds.toFixed(1)}`),
        `acknowledged: ${JSON.stringify(load.acknowledged)}; refused: ${load.refusals.length} (${summarise(load.refusals.map((r) => String(r.status)))}); longest run of seconds with a refusal: ${longest}`,
      ].join('\n'),
    );

    // No 500; every refusal honest (a 503 with Retry-After, or the connection itself gone).
    expect(load.refusals.filter((r) => r.status === 500)).toEqual([]);
    expect(load.refusals.filter((r) => r.status !== 'network' && !(r.status === 503 && r.retryAfter))).toEqual([]);
    expect(load.acknowledged.timeline).toBeGreaterThan(0);
    expect(load.acknowledged.comment).toBeGreaterThan(0);
    expect(load.acknowledged.like).toBeGreaterThan(0);

    // Every acknowledged write is there.
    const timelines = await postgres.query<{ id: string }>('SELECT id FROM timelines.timelines WHERE id = ANY($1::uuid[])', [[...load.timelines]]);
    expect(timelines.length).toBe(load.timelines.size);
    const comments = await postgres.query<{ id: string }>('SELECT id FROM social.timeline_comments WHERE id = ANY($1::uuid[])', [[...load.comments]]);
    expect(comments.length).toBe(load.comments.size);

    // Nothing lost, nothing applied twice: the event-kept counters equal fresh counts.
    const counters = await settle(() => counterDrift(postgres, load.personIds), 120_000);
    console.log(`counters equal to fresh counts ${counters.seconds.toFixed(1)} s after the load stopped`);
    expect(counters.remaining).toEqual([]);
    const drained = await settle(() => undispatchedOutboxes(postgres), 60_000);
    expect(drained.remaining).toEqual([]);
    const admin = await DeadLetterAdmin.open(nats.url.split(','), BUS_PREFIX);
    try {
      expect(await admin.list()).toEqual([]);
    } finally {
      await admin.close();
    }
  }, 900_000);
});
