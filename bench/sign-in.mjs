#!/usr/bin/env node
// Sign-in benchmark (issue 29, "sign-in p95 with a password is unchanged within 10 %"): the
// account protections (failure counters per account and source address with growing delays, the
// two-step check, session device records) must not slow the owners' own sign-ins, also while an
// attacker tries wrong passwords against some of them.
//
//   npm run build   (the services and the gateway must be built)
//   node bench/sign-in.mjs
//
// Steps:
//   1. a scratch database (CREATE DATABASE on ADMIN_DATABASE_URL) and a unique BUS_PREFIX; every
//      service and the gateway as its own process (the processes of deploy/run-services.mjs). The
//      bench stands as the proxy in front of the gateway (TRUST_PROXY=127.0.0.1), so each request's
//      X-Forwarded-For is its source address; the gateway's per-address limits are raised, so only
//      the auth service's own rules answer the attempts;
//   2. SIGNIN_BENCH_ACCOUNTS (200) owners sign up through the gateway, each from an address and a
//      browser (User-Agent) of its own (198.18.0.0/15, the benchmarking range), and
//      SIGNIN_BENCH_VICTIMS (4) victims: the first half of them owners, the rest accounts that only
//      the attacker tries; the set-up goes SIGNIN_BENCH_REGISTER_CONCURRENCY (4) at a time;
//   3. a warm-up: owners' sign-ins at SIGNIN_BENCH_RATE for SIGNIN_BENCH_WARM_SECONDS (2);
//   4. A, baseline: `POST /api/auth/login` with the right password, each owner in turn from its own
//      address and browser, open loop at SIGNIN_BENCH_RATE (20) per second for SIGNIN_BENCH_SECONDS
//      (30); latency is measured from the moment the request was due, so a stalled server is not
//      hidden by a client that waits (no coordinated omission); printed: p50 / p95 / p99 / max,
//      errors (anything but 200 with a session is one, the first few printed) and the achieved rate;
//   5. B, under attack: the same owners' sign-ins at the same rate, and alongside them wrong
//      passwords against the victims from SIGNIN_BENCH_ATTACK_ADDRESSES (50) addresses (another
//      browser), open loop at SIGNIN_BENCH_ATTACK_RATE (20) per second, each address going through
//      the victims in turn; printed: the owners' figures as in A, their p95 against A's (ratio and
//      the bar), and how the attack's requests were answered (status counts, the longest Retry-After);
//   6. everything is removed: processes, database, the prefix's NATS streams, the data dir; also when
//      the bench is stopped with Ctrl-C or SIGTERM (lib/cleanup.mjs).
// The auth service refuses more than its `loginAttemptsPerIp` attempts from one address in its
// window (60 in 15 minutes): the bench stops before starting when the owners' own addresses would
// reach that (fewer accounts than the rate and the seconds need).
//
// Env: ADMIN_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), NATS_URL
// (nats://127.0.0.1:4222), SIGNIN_BENCH_ACCOUNTS, SIGNIN_BENCH_VICTIMS, SIGNIN_BENCH_RATE,
// SIGNIN_BENCH_SECONDS, SIGNIN_BENCH_WARM_SECONDS, SIGNIN_BENCH_ATTACK_ADDRESSES,
// SIGNIN_BENCH_ATTACK_RATE, SIGNIN_BENCH_REGISTER_CONCURRENCY, SIGNIN_BENCH_KEEP=1 keeps the database,
// SIGNIN_BENCH_PRODUCT=<checkout> runs another built checkout of the product (the bench stays this
// one): `git worktree add /tmp/before <commit>`, link node_modules, `npx tsc -b && node
// deploy/bundle.mjs` there, then SIGNIN_BENCH_ATTACK_RATE=0 compares the plain sign-in before and after.
// A small run: SIGNIN_BENCH_ACCOUNTS=5 SIGNIN_BENCH_SECONDS=2 SIGNIN_BENCH_RATE=2
// SIGNIN_BENCH_ATTACK_RATE=2 node bench/sign-in.mjs
// Bar: the owners' sign-in p95 under attack (B) within 10 % of the baseline's (A), every owner's
// sign-in answered 200 with a session.
import { randomBytes } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { cleanup, interrupted, scratchDatabase, removeDir, removeStreams } from './lib/cleanup.mjs';
import { startTopology } from './lib/processes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
/** The built product to measure: this tree, or another checkout (`SIGNIN_BENCH_PRODUCT`), e.g. the code before the account protections, for the "unchanged" comparison. */
const PRODUCT = env.SIGNIN_BENCH_PRODUCT || ROOT;
const num = (name, fallback) => (env[name] ? Number(env[name]) : fallback);
const ACCOUNTS = num('SIGNIN_BENCH_ACCOUNTS', 200);
const VICTIMS = num('SIGNIN_BENCH_VICTIMS', 4);
const RATE = num('SIGNIN_BENCH_RATE', 20);
const SECONDS = num('SIGNIN_BENCH_SECONDS', 30);
const WARM_SECONDS = num('SIGNIN_BENCH_WARM_SECONDS', 2);
const ATTACK_ADDRESSES = num('SIGNIN_BENCH_ATTACK_ADDRESSES', 50);
const ATTACK_RATE = num('SIGNIN_BENCH_ATTACK_RATE', 20);
const REGISTER_CONCURRENCY = num('SIGNIN_BENCH_REGISTER_CONCURRENCY', 4);
const ADMIN_URL = env.ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'correct-horse-battery';
const WRONG_PASSWORD = 'wrong-horse-battery';
const ATTACKER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) SignInBench/attacker';

const ms = (v) => `${v.toFixed(1)} ms`;
const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
const load = () => loadavg().map((v) => v.toFixed(2)).join(', ');
/** Address n of a /15 benchmarking range (RFC 2544): owners in 198.18.0.0/16, attackers in 198.19.0.0/16. */
const address = (second, n) => `198.${second}.${Math.floor(n / 250) % 256}.${1 + (n % 250)}`;

/** The auth service's limit on attempts from one address, read from its built code. */
async function attemptsPerAddress() {
  const { authLimits } = await import('../services/auth/dist/auth/auth.limits.js');
  const limit = authLimits.loginAttemptsPerIp('0.0.0.0');
  return { max: limit.max, windowSeconds: limit.windowSeconds };
}

/** One `POST` through the gateway as if from `from` (the proxy's X-Forwarded-For) in browser `agent`. */
async function post(pool, path, body, from, agent) {
  const res = await pool.request({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from, 'user-agent': agent },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, retryAfter: res.headers['retry-after'], text };
}

/** Accounts signed up through the gateway, `concurrency` at a time, each from its own address and browser. */
async function signUp(pool, count, label, firstIndex, concurrency) {
  const tag = randomBytes(3).toString('hex');
  const accounts = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) {
      const i = next++;
      const n = firstIndex + i;
      const username = `${label}_${tag}_${i}`;
      const account = { username, from: address(18, n), agent: `Mozilla/5.0 (X11; Linux x86_64) SignInBench/${n}` };
      const res = await post(pool, '/api/auth/register', { displayName: `Sign-in Bench ${n}`, username, email: `${username}@example.com`, password: PASSWORD }, account.from, account.agent);
      if (res.status !== 201 && res.status !== 200) throw new Error(`registering ${username}: ${res.status} ${res.text.slice(0, 300)}`);
      accounts[i] = account;
    }
  }));
  return accounts;
}

/**
 * Open loop: request i is due at start + i / rate s, latency from when it was due. `make(i)`
 * sends request i and answers { status, retryAfter, text }; `ok(res)` tells whether it is what was wanted.
 */
async function openLoop(rate, seconds, make, ok) {
  const total = Math.round(rate * seconds);
  const latencies = [];
  const statuses = new Map();
  const errors = [];
  let longestRetryAfter = 0;
  const started = performance.now();
  const inflight = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    inflight.push(
      make(i).then(
        (res) => {
          latencies.push(performance.now() - due);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.retryAfter) longestRetryAfter = Math.max(longestRetryAfter, Number(res.retryAfter));
          if (!ok(res)) errors.push(`${res.status} ${res.text.slice(0, 200)}`);
        },
        (error) => {
          statuses.set('no answer', (statuses.get('no answer') ?? 0) + 1);
          errors.push(String(error));
        },
      ),
    );
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    total, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: latencies.at(-1) ?? NaN,
    errors, statuses, longestRetryAfter, achieved: total / elapsed,
  };
}

/** The owners' sign-ins: each owner in turn, from its own address and browser, the right password. */
function ownersSignIn(pool, owners, rate, seconds) {
  return openLoop(
    rate,
    seconds,
    (i) => {
      const owner = owners[i % owners.length];
      return post(pool, '/api/auth/login', { login: owner.username, password: PASSWORD }, owner.from, owner.agent);
    },
    (res) => res.status === 200 && /"token"/.test(res.text),
  );
}

/** Wrong passwords against the victims: request i from attacker address i mod N, each address going through the victims in turn. */
function attack(pool, victims, rate, seconds) {
  return openLoop(
    rate,
    seconds,
    (i) => {
      const victim = victims[Math.floor(i / ATTACK_ADDRESSES) % victims.length];
      return post(pool, '/api/auth/login', { login: victim.username, password: WRONG_PASSWORD }, address(19, i % ATTACK_ADDRESSES), ATTACKER_AGENT);
    },
    (res) => res.status === 401 || res.status === 429,
  );
}

function report(label, r) {
  console.log(`${label}  ${r.total} sign-ins, achieved ${r.achieved.toFixed(1)}/s  p50 ${ms(r.p50)}  p95 ${ms(r.p95)}  p99 ${ms(r.p99)}  max ${ms(r.max)}  errors ${r.errors.length}`);
  for (const error of [...new Set(r.errors)].slice(0, 5)) console.log(`    refused owner: ${error}`);
}

async function main() {
  console.log(`sign-in bench: load average at start ${load()} (1, 5, 15 min)`);
  const perAddress = await attemptsPerAddress();
  const ownerAttempts = Math.ceil((RATE * (WARM_SECONDS + 2 * SECONDS)) / ACCOUNTS);
  if (ownerAttempts >= perAddress.max) {
    throw new Error(`each owner's address would sign in ${ownerAttempts} times, and the auth service refuses more than ${perAddress.max} attempts from one address in ${perAddress.windowSeconds / 60} minutes: raise SIGNIN_BENCH_ACCOUNTS or lower SIGNIN_BENCH_RATE / SIGNIN_BENCH_SECONDS`);
  }
  const ownerVictims = Math.min(ACCOUNTS, Math.ceil(VICTIMS / 2));
  const otherVictims = VICTIMS - ownerVictims;
  console.log(`${ACCOUNTS} owners at ${RATE}/s for ${SECONDS} s (about ${ownerAttempts} sign-ins per owner's address, the auth service allows ${perAddress.max}); `
    + `attack ${ATTACK_RATE}/s from ${ATTACK_ADDRESSES} addresses on ${VICTIMS} victims (${ownerVictims} of them owners)`);

  const dbName = `signin_bench_${randomBytes(4).toString('hex')}`;
  const prefix = `signinbench${randomBytes(3).toString('hex')}`;
  const dbUrl = await scratchDatabase(ADMIN_URL, dbName, { keep: Boolean(env.SIGNIN_BENCH_KEEP) });
  const baseEnv = {
    ...env,
    DATABASE_URL: dbUrl,
    NATS_URL: env.NATS_URL || 'nats://127.0.0.1:4222',
    BUS_PREFIX: prefix,
    DATA_DIR: join(tmpdir(), prefix),
    // The bench is the proxy in front: X-Forwarded-For names each request's source address.
    TRUST_PROXY: '127.0.0.1',
    // The gateway's per-address limits out of the way: the auth service's rules are what is measured.
    RATE_LIMIT_MAX: '100000000',
    CONTENT_RATE_LIMIT_MAX: '100000000',
    AUTH_RATE_LIMIT_MAX: '100000000',
    MAX_CONNECTIONS_PER_ADDRESS: '0',
    NODE_ENV: 'production',
  };
  removeStreams(baseEnv.NATS_URL, prefix);
  removeDir(baseEnv.DATA_DIR);
  let pools = [];
  try {
    console.log(`database ${dbName}, bus prefix ${prefix}`);
    const topo = await startTopology(PRODUCT, baseEnv);
    console.log(`gateway ${topo.base}${PRODUCT === ROOT ? '' : `, product from ${PRODUCT}`}`);
    const ownerPool = new Pool(topo.base, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
    const attackPool = new Pool(topo.base, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
    pools = [ownerPool, attackPool];

    let t0 = performance.now();
    const owners = await signUp(ownerPool, ACCOUNTS, 'owner', 0, REGISTER_CONCURRENCY);
    const others = await signUp(ownerPool, otherVictims, 'victim', ACCOUNTS, REGISTER_CONCURRENCY);
    const victims = [...owners.slice(0, ownerVictims), ...others];
    console.log(`signed up ${owners.length + others.length} accounts through the gateway in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    t0 = performance.now();
    const warm = await ownersSignIn(ownerPool, owners, RATE, WARM_SECONDS);
    console.log(`warm-up: ${warm.total} sign-ins in ${((performance.now() - t0) / 1000).toFixed(1)} s, errors ${warm.errors.length}`);
    await sleep(1000);

    const baseline = await ownersSignIn(ownerPool, owners, RATE, SECONDS);
    report('A, baseline:      ', baseline);
    await sleep(1000);

    const [underAttack, attempts] = await Promise.all([ownersSignIn(ownerPool, owners, RATE, SECONDS), attack(attackPool, victims, ATTACK_RATE, SECONDS)]);
    report('B, under attack:  ', underAttack);
    const answered = [...attempts.statuses].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([status, n]) => `${status} × ${n}`).join(', ');
    console.log(`   the attack: ${attempts.total} wrong passwords, answered ${answered}; longest Retry-After ${attempts.longestRetryAfter} s; p50 ${ms(attempts.p50)}, p95 ${ms(attempts.p95)}`);
    for (const error of [...new Set(attempts.errors)].slice(0, 3)) console.log(`    unexpected answer to the attack: ${error}`);

    const ratio = underAttack.p95 / baseline.p95;
    const met = ratio <= 1.1 && underAttack.errors.length === 0 && baseline.errors.length === 0;
    console.log(`\nbar: owners' sign-in p95 under attack ${ms(underAttack.p95)} / baseline ${ms(baseline.p95)} = ${ratio.toFixed(3)} (${((ratio - 1) * 100).toFixed(1)} %), `
      + `owners refused ${baseline.errors.length} / ${underAttack.errors.length}; within 10 %: ${met ? 'met' : 'not met'}`);
  } finally {
    for (const pool of pools) await pool.close().catch(() => undefined);
    await cleanup();
    console.log(`load average at end ${load()}`);
  }
}

main().catch((error) => {
  if (interrupted()) return;
  console.error(error);
  process.exitCode = 1;
});
