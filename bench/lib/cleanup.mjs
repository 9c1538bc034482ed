// What a bench started, removed once, whichever way the bench ends: at its normal end, on an
// error, or stopped with Ctrl-C (SIGINT) or SIGTERM.
//
// A bench registers each thing as it makes it (a scratch database, a bus prefix's NATS streams, a
// temp directory, a child process, anything else with a function); `cleanup()` undoes them newest
// first, each once, reporting (not throwing) what fails, and then kills whatever process this one
// started that is still running (Linux: found through /proc, so ffmpeg, Chromium and the children
// of deploy/run-services.mjs too). On SIGINT or SIGTERM it runs `cleanup()` and exits with
// 128 + the signal's number; a second signal while it runs kills what is left and exits at once.
//
//   import { cleanup, scratchDatabase, removeStreams, removeDir } from './lib/cleanup.mjs';
//   try {
//     const url = await scratchDatabase(ADMIN_URL, name);   // dropped (WITH (FORCE)) by cleanup()
//     removeStreams(NATS_URL, prefix);                     // deleted by cleanup()
//     ...
//   } finally {
//     await cleanup();
//   }
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/** @type {{ label: string, undo: () => unknown }[]} */
const steps = [];
/** Steps that run before all the others (in the order registered): see `onCleanup`'s `first`. */
const firstSteps = [];
let running;

const STEP_TIMEOUT_MS = 60_000;

/** True once `cleanup()` has started: a bench starts nothing new after that. */
export const stopping = () => running !== undefined;

/**
 * Registers `undo` (sync or async) to run at cleanup, before everything registered earlier;
 * `first`: before every other step (killing work that the other steps would wait for). Answers a
 * function that unregisters it (for what the bench removed itself).
 */
export function onCleanup(label, undo, { first = false } = {}) {
  const step = { label, undo };
  const list = first ? firstSteps : steps;
  list.push(step);
  return () => {
    const index = list.indexOf(step);
    if (index >= 0) list.splice(index, 1);
  };
}

/** Undoes every registered step, newest first, then kills the processes still left. The same promise for every caller. */
export function cleanup() {
  running ??= (async () => {
    while (firstSteps.length + steps.length > 0) {
      const { label, undo } = firstSteps.length > 0 ? firstSteps.shift() : steps.pop();
      try {
        // A step that hangs (a server gone silent) does not hold up the others.
        const timedOut = Symbol('timed out');
        const ac = new AbortController();
        const outcome = await Promise.race([undo(), sleep(STEP_TIMEOUT_MS, timedOut, { ref: false, signal: ac.signal }).catch(() => undefined)]);
        ac.abort();
        if (outcome === timedOut) throw new Error(`no answer in ${STEP_TIMEOUT_MS / 1000} s`);
      } catch (error) {
        console.error(`cleanup: ${label}: ${error?.message ?? error}`);
      }
    }
    const left = killDescendants('SIGKILL');
    if (left.length > 0) console.error(`cleanup: killed ${left.length} process(es) still running: ${left.join(', ')}`);
  })();
  return running;
}

/** The processes this one started, and theirs, from /proc (Linux; none elsewhere). */
export function descendants(root = process.pid) {
  const parentOf = new Map();
  let entries;
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found = [];
  let frontier = [root];
  while (frontier.length > 0) {
    const next = [];
    for (const [pid, parent] of parentOf) if (frontier.includes(parent)) next.push(pid);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** Sends `signal` to every process this one started, and theirs; answers their pids. */
export function killDescendants(signal = 'SIGTERM') {
  const pids = descendants();
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
  return pids;
}

/** Stops `child` at cleanup: SIGTERM, then SIGKILL after `graceMs`. */
export function stopOnCleanup(child, label = `process ${child.pid}`, graceMs = 15_000) {
  const unregister = onCleanup(label, () => stopChild(child, graceMs));
  child.once('exit', unregister);
  return unregister;
}

const exited = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)));

/** SIGTERM, and SIGKILL if it has not exited within `graceMs`. */
export async function stopChild(child, graceMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await Promise.race([exited(child), sleep(graceMs)]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited(child);
  }
}

/**
 * CREATE DATABASE `name` through `adminUrl` and register its DROP ... WITH (FORCE) (unless `keep`);
 * answers the new database's URL. The drop uses a connection of its own, so a bench's busy client
 * never holds it up.
 */
export async function scratchDatabase(adminUrl, name, { keep = false } = {}) {
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  onCleanup(`database ${name}`, async () => {
    if (keep) return console.log(`kept database ${name}`);
    // A pool closed a moment ago may still have backends leaving; FORCE ends the rest.
    for (let attempt = 1; ; attempt++) {
      try {
        return await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } catch (error) {
        if (attempt === 5) throw error;
        await sleep(500);
      }
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(adminUrl, sql) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Registers the deletion of every JetStream stream whose name starts with `prefix` (any case): the bus's events, dead letters and work queues. */
export function removeStreams(natsUrl, prefix) {
  return onCleanup(`NATS streams ${prefix}*`, async () => {
    const { connect } = await import('@nats-io/transport-node');
    const { jetstreamManager } = await import('@nats-io/jetstream');
    const nc = await connect({ servers: natsUrl, name: `cleanup-${prefix}`, timeout: 5_000 });
    try {
      const jsm = await jetstreamManager(nc);
      for await (const stream of jsm.streams.list()) {
        if (stream.config.name.toLowerCase().startsWith(prefix.toLowerCase())) await jsm.streams.delete(stream.config.name);
      }
    } finally {
      await nc.close();
    }
  });
}

/** Registers the removal of `dir` and everything in it (unless `keep`). */
export function removeDir(dir, { keep = false } = {}) {
  return onCleanup(`directory ${dir}`, () => (keep ? console.log(`kept ${dir}`) : rm(dir, { recursive: true, force: true })));
}

let signalled = 0;
/** True once the bench got SIGINT or SIGTERM: what fails after that is the stop, not the bench. */
export const interrupted = () => signalled > 0;

for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15]]) {
  process.on(signal, () => {
    signalled += 1;
    if (signalled > 1) {
      console.error(`${signal} again: killing what is left and exiting`);
      killDescendants('SIGKILL');
      process.exit(128 + number);
    }
    console.error(`${signal}: removing what the bench started (once more to quit at once)`);
    void cleanup().finally(() => process.exit(128 + number));
  });
}
