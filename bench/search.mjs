#!/usr/bin/env node
// Search benchmark (DESIGN.md section 8, "search"): `GET /api/search/enhanced` over a seeded read
// model, through the gateway and straight at the search service, at a fixed rate.
//
//   npx tsc -b   (the search service and the gateway must be built)
//   node bench/search.mjs
//
// Steps:
//   1. a scratch database (CREATE DATABASE on ADMIN_DATABASE_URL) and a unique BUS_PREFIX; the
//      search service and the gateway, each its own process (the gateway's other upstreams point
//      nowhere: every search call is the search service's), the gateway's limits raised (the load
//      comes from one address);
//   2. straight into the search schema, with generate_series over a vocabulary of
//      SEARCH_BENCH_WORDS (6,000) made-up words used with a Zipf-like skew: SEARCH_BENCH_TIMELINES
//      (100,000) timelines (90% public and published; titles of 3 to 5 words, descriptions of 12
//      to 30, up to two of SEARCH_BENCH_HASHTAGS (20,000) hashtags each), SEARCH_BENCH_USERS
//      (100,000) people with names and bios, and 60,000 hashtag uses by posts over 8 days; the
//      service's trigger builds every document and the known words; then VACUUM ANALYZE;
//   3. for each path (gateway, direct), an open loop at SEARCH_BENCH_RATE (100) queries per second
//      for SEARCH_BENCH_SECONDS (40), the kinds in turn: one word, two words, a quoted phrase from a
//      real title, a word with a typo, a prefix being typed (type-ahead), a #hashtag; latency from
//      when each query was due (no coordinated omission); p50 / p95 / p99 / max per kind;
//   4. with SEARCH_BENCH_PHASES including `filters` (issue 28, blocks and mutes): through the
//      gateway as one searcher, the same load without any, then FILTER_BENCH_BLOCKS (1,000) blocks,
//      FILTER_BENCH_MUTES (20,000) muted accounts and FILTER_BENCH_WORDS (5,000) muted words across
//      the seeded people in the service's copy (the searcher among them: 10 blocks and 200 mutes of
//      creators, and 10 muted words of the vocabulary), the plans checked for index use (EXPLAIN),
//      and the same load again; printed: p99 of each kind without and with, and the ratio of the
//      worst (bar: within 15 %);
//   5. the sizes of the tables and indexes;
//   6. everything is removed: processes, database, the prefix's NATS streams; also when the bench is
//      stopped with Ctrl-C or SIGTERM (lib/cleanup.mjs).
//
// Env: ADMIN_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), NATS_URL
// (nats://127.0.0.1:4222), SEARCH_BENCH_TIMELINES, SEARCH_BENCH_USERS, SEARCH_BENCH_HASHTAGS,
// SEARCH_BENCH_WORDS, SEARCH_BENCH_RATE, SEARCH_BENCH_SECONDS, SEARCH_BENCH_PHASES (search; add filters),
// FILTER_BENCH_BLOCKS, FILTER_BENCH_MUTES, FILTER_BENCH_WORDS, SEARCH_BENCH_KEEP=1 keeps the database.
// A small run of the filters phase: SEARCH_BENCH_PHASES=filters SEARCH_BENCH_TIMELINES=10000
// SEARCH_BENCH_USERS=10000 SEARCH_BENCH_SECONDS=10 SEARCH_BENCH_RATE=50 node bench/search.mjs
// Bars: p95 ≤ 30 ms for every kind; type-ahead p95 ≤ 10 ms at the service.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { createEventBus, serveRpc } from '@timeliner/platform';
import { AuthRpc } from '@timeliner/proto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Pool } from 'undici';
import { cleanup, interrupted, onCleanup, removeDir, removeStreams, scratchDatabase } from './lib/cleanup.mjs';
import { freePort, startProcess } from './lib/processes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const num = (name, fallback) => (env[name] ? Number(env[name]) : fallback);
const SIZES = {
  timelines: num('SEARCH_BENCH_TIMELINES', 100_000),
  users: num('SEARCH_BENCH_USERS', 100_000),
  hashtags: num('SEARCH_BENCH_HASHTAGS', 20_000),
  words: num('SEARCH_BENCH_WORDS', 6_000),
};
const RATE = num('SEARCH_BENCH_RATE', 100);
const SECONDS = num('SEARCH_BENCH_SECONDS', 40);
const ADMIN_URL = env.ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PHASES = (env.SEARCH_BENCH_PHASES || 'search').split(',');
const FILTERS = { blocks: num('FILTER_BENCH_BLOCKS', 1_000), mutes: num('FILTER_BENCH_MUTES', 20_000), words: num('FILTER_BENCH_WORDS', 5_000) };
/** The one person the gateway's session check names (the searcher whose filters apply). */
const SEARCHER = randomUUID();
const KINDS = ['one word', 'two words', 'phrase', 'typo', 'type-ahead', 'hashtag'];

/** Made-up, pronounceable words: deterministic, distinct, 4 to 9 letters. */
function vocabulary(count) {
  const onsets = ['b', 'br', 'c', 'ch', 'd', 'f', 'g', 'gr', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'pl', 'r', 's', 'st', 't', 'tr', 'v', 'w', 'z'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou', 'ea'];
  const codas = ['', 'n', 'r', 'l', 's', 'm', 'th', 'nd', 'st', 'x'];
  const words = new Set();
  let i = 0;
  while (words.size < count) {
    const syllables = 2 + (i % 2);
    let word = '';
    let k = i * 2654435761;
    for (let s = 0; s < syllables; s++) {
      word += onsets[k % onsets.length] + vowels[Math.floor(k / 31) % vowels.length];
      k = Math.floor(k / 7) + 17 * (s + 1);
    }
    word += codas[i % codas.length];
    if (word.length >= 4 && word.length <= 9) words.add(word);
    i++;
  }
  return [...words];
}

/** The read model, written straight into the search schema. */
async function seed(db, words) {
  const { timelines, users, hashtags } = SIZES;
  const timed = async (label, sql, params) => {
    const t0 = performance.now();
    await db.query(sql, params);
    console.log(`  ${label.padEnd(48)} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  console.log('seeding:');
  await db.query('CREATE TEMP TABLE vocab (i int PRIMARY KEY, word text NOT NULL)');
  await db.query('INSERT INTO vocab SELECT i - 1, w FROM unnest($1::text[]) WITH ORDINALITY AS u(w, i)', [words]);
  const V = words.length;
  // A skewed pick of the vocabulary: word i is about as common as 1 / (i + 1).
  const pick = (seedExpr) => `(SELECT word FROM vocab WHERE i = floor(${V} * power(((${seedExpr}) * 0.6180339887) % 1, 2.2))::int)`;
  const phrase = (n, seedExpr) => `concat_ws(' ', ${Array.from({ length: n }, (_, k) => pick(`(${seedExpr}) * ${k + 3} + ${k * 7919}`)).join(', ')})`;
  await db.query(`CREATE TEMP TABLE tags AS SELECT n AS i, w1.word || w2.word AS name
    FROM generate_series(0, ${hashtags - 1}) n JOIN vocab w1 ON w1.i = n % ${V} JOIN vocab w2 ON w2.i = (n / ${V} * 37 + n * 13 + 1) % ${V}`);
  await db.query('CREATE UNIQUE INDEX ON tags (i)');
  const tag = (seedExpr) => `(SELECT name FROM tags WHERE i = floor(${hashtags} * power(((${seedExpr}) * 0.7548776662) % 1, 2))::int)`;
  await timed(`${users} people`, `INSERT INTO users (id, username, display_name, bio, followers_count)
    SELECT md5('u' || n)::uuid, left(${pick('n * 11')} || '_' || ${pick('n * 17 + 5')} || n, 30), initcap(${pick('n * 11')}) || ' ' || initcap(${pick('n * 17 + 5')}),
           ${phrase(6, 'n * 23')}, (n * 7919) % 3000
      FROM generate_series(1::bigint, ${users}) n`);
  // 90% public and published; the rest private, unlisted or draft.
  await timed(`${timelines} timelines`, `INSERT INTO timelines (id, creator_id, creator_name, creator_username, title, description, hashtags, listed,
        video_count, duration, views, likes_count, comments_count, activity_score, popularity, last_activity_at, created_at, updated_at, revision)
    SELECT md5('t' || n)::uuid, md5('u' || (1 + n % ${users}))::uuid, u.display_name, u.username,
           initcap(${phrase(3, 'n * 3')}) || CASE WHEN n % 2 = 0 THEN ' ' || ${pick('n * 29')} ELSE '' END,
           ${phrase(14, 'n * 5')} || CASE WHEN n % 3 = 0 THEN ' ' || ${phrase(12, 'n * 41')} ELSE '' END,
           CASE WHEN n % 10 = 0 THEN '{}'::varchar[] ELSE array_remove(ARRAY[${tag('n * 3')}, CASE WHEN n % 2 = 0 THEN ${tag('n * 7 + 1')} END], NULL)::varchar[] END,
           n % 10 <> 0, 1 + n % 12, 30 + n % 600, v.views, v.views / 20, v.views / 60, 0, ln(1 + v.views + 2 * (v.views / 20) + 3 * (v.views / 60)),
           now() - (n % 5000) * interval '1 minute', now() - (n % 90) * interval '1 day', now(), 1
      FROM generate_series(1::bigint, ${timelines}) n
      JOIN users u ON u.id = md5('u' || (1 + n % ${users}))::uuid
      CROSS JOIN LATERAL (SELECT ((n * 104729) % 100000) * ((n * 7) % 5) / 10 AS views) v`);
  await timed('hashtag uses of the listed timelines', `INSERT INTO hashtag_uses (source_type, source_id, hashtag, user_id, used_at)
    SELECT 'timeline', t.id, tag, t.creator_id, t.created_at FROM timelines t, unnest(t.hashtags) tag WHERE t.listed ON CONFLICT DO NOTHING`);
  // Posts over the last 8 days reach every hashtag, and a few tags take off today.
  await timed('60000 post hashtag uses', `INSERT INTO hashtag_uses (source_type, source_id, hashtag, user_id, used_at)
    SELECT 'post', md5('p' || n)::uuid, (SELECT name FROM tags WHERE i = CASE WHEN n <= ${hashtags} THEN n - 1 WHEN n % 50 = 0 THEN n % 7 ELSE floor(${hashtags} * power(((n * 3) * 0.7548776662) % 1, 2))::int END),
           md5('u' || (1 + (n * 13) % ${users}))::uuid, now() - ((n * 7919) % (8 * 86400)) * interval '1 second'
      FROM generate_series(1::bigint, 60000) n ON CONFLICT DO NOTHING`);
  await timed('hashtags with their usage', `INSERT INTO hashtags (name, usage_count) SELECT hashtag, count(*) FROM hashtag_uses GROUP BY hashtag`);
  await timed('engagement of the last days', `INSERT INTO timeline_engagement (timeline_id, day, engagement)
    SELECT id, current_date - (n % 7)::int, views / 7.0 FROM (SELECT id, views, row_number() OVER () AS n FROM timelines WHERE listed) t`);
  await timed('VACUUM ANALYZE', 'VACUUM ANALYZE');
  const [counts] = (await db.query(`SELECT (SELECT count(*) FROM timelines) AS timelines, (SELECT count(*) FROM timelines WHERE listed) AS listed,
      (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM hashtags) AS hashtags, (SELECT count(*) FROM search_words) AS "known words"`)).rows;
  console.log(`  rows: ${Object.entries(counts).map(([k, v]) => `${k} ${Number(v).toLocaleString('en')}`).join(', ')}`);
}

/** Queries of each kind, taken from the seeded data. */
async function queries(db, words) {
  const rnd = (n) => Math.floor(Math.random() * n);
  const skewed = () => words[Math.floor(words.length * Math.random() ** 2.2)];
  const titles = (await db.query(`SELECT title FROM timelines WHERE listed ORDER BY random() LIMIT 2000`)).rows.map((r) => r.title);
  const tags = (await db.query(`SELECT name FROM hashtags ORDER BY random() LIMIT 2000`)).rows.map((r) => r.name);
  const typo = (word) => {
    const at = 1 + rnd(word.length - 2);
    return rnd(2) === 0 ? word.slice(0, at) + word.slice(at + 1) : word.slice(0, at) + 'aeiou'[rnd(5)] + word.slice(at + 1);
  };
  return {
    'one word': () => `${skewed()} `,
    'two words': () => `${skewed()} ${skewed()} `,
    phrase: () => {
      const parts = titles[rnd(titles.length)].toLowerCase().split(' ');
      const at = rnd(parts.length - 1);
      return `"${parts[at]} ${parts[at + 1]}"`;
    },
    typo: () => `${typo(skewed())} `,
    'type-ahead': () => {
      const word = skewed();
      return word.slice(0, 3 + rnd(word.length - 2));
    },
    hashtag: () => {
      const name = tags[rnd(tags.length)];
      return `#${rnd(2) === 0 ? name : name.slice(0, Math.max(3, name.length - 3))}`;
    },
  };
}

const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);

/** Open loop over the kinds in turn: one query every 1/rate s, latency from when it was due. */
async function fixedRate(pool, make, rate, seconds) {
  const total = Math.round(rate * seconds);
  const byKind = Object.fromEntries(KINDS.map((k) => [k, { latencies: [], errors: 0, firstError: '' }]));
  const started = performance.now();
  const inflight = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const kind = KINDS[i % KINDS.length];
    const stats = byKind[kind];
    const path = `/api/search/enhanced?q=${encodeURIComponent(make[kind]())}`;
    inflight.push(
      pool.request({ method: 'GET', path, headers: { 'x-request-id': randomUUID(), ...(pool === gatewayPool ? gatewayHeaders : {}) } }).then(
        async (res) => {
          await res.body.text();
          stats.latencies.push(performance.now() - due);
          if (res.statusCode !== 200) {
            stats.errors++;
            stats.firstError ||= `${res.statusCode} ${path}`;
          }
        },
        (error) => {
          stats.errors++;
          stats.firstError ||= String(error);
        },
      ),
    );
  }
  await Promise.all(inflight);
  const achieved = total / ((performance.now() - started) / 1000);
  return {
    achieved,
    kinds: Object.fromEntries(Object.entries(byKind).map(([kind, s]) => {
      s.latencies.sort((a, b) => a - b);
      return [kind, { n: s.latencies.length, p50: percentile(s.latencies, 50), p95: percentile(s.latencies, 95), p99: percentile(s.latencies, 99), max: s.latencies.at(-1), errors: s.errors, firstError: s.firstError }];
    })),
  };
}

const ms = (v) => `${v.toFixed(1)} ms`.padStart(9);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Blocks, mutes and muted words (issue 28) in the search service's copy, across the seeded people
 * and the searcher; the same gateway load without and with them.
 */
async function filtersPhase(db, make, words) {
  const { users } = SIZES;
  const uid = (expr) => `md5('u' || (${expr})::text)::uuid`;
  console.log(`\nblocks and mutes (issue 28): through the gateway as one searcher, ${RATE} queries/s for ${SECONDS} s, without and with them:`);
  await fixedRate(gatewayPool, make, RATE, 5);
  const without = await fixedRate(gatewayPool, make, RATE, SECONDS);
  const t0 = performance.now();
  await db.query(`INSERT INTO person_filters (owner_id, other_id, kind, active, version)
    SELECT $1::uuid, ${uid(`1 + (k * 97) % ${users}`)}, 'block', true, k FROM generate_series(1, 10) k
    UNION ALL SELECT ${uid(`1 + (n * 31) % ${users}`)}, ${uid(`1 + (n * 7907 + 5 + n / ${users}) % ${users}`)}, 'block', true, n FROM generate_series(11, ${FILTERS.blocks}) n
    UNION ALL SELECT $1::uuid, ${uid(`1 + (k * 89 + 3) % ${users}`)}, 'mute', true, k FROM generate_series(1, 200) k
    UNION ALL SELECT ${uid(`1 + (n * 37) % ${users}`)}, ${uid(`1 + (n * 7919 + 3 + n / ${users}) % ${users}`)}, 'mute', true, n FROM generate_series(201, ${FILTERS.mutes}) n
    ON CONFLICT DO NOTHING`, [SEARCHER]);
  // The searcher mutes ten words of the vocabulary (from its middle: neither the commonest nor unused); the rest are others'.
  const mine = words.slice(Math.floor(words.length / 3), Math.floor(words.length / 3) + 10);
  const pattern = (w) => `'(^|[^[:alnum:]_])' || ${w} || '($|[^[:alnum:]_])'`;
  await db.query(`INSERT INTO muted_words (user_id, word, pattern, expires_at) SELECT $1::uuid, w, ${pattern('w')}, NULL FROM unnest($2::text[]) w ON CONFLICT DO NOTHING`, [SEARCHER, mine]);
  await db.query(`INSERT INTO muted_words (user_id, word, pattern, expires_at)
    SELECT ${uid(`1 + n % ${users}`)}, 'word' || n, ${pattern(`'word' || n`)}, NULL FROM generate_series(1, ${Math.max(0, FILTERS.words - mine.length)}) n ON CONFLICT DO NOTHING`);
  await db.query('ANALYZE person_filters; ANALYZE muted_words');
  const { rows: [n] } = await db.query(`SELECT count(*) FILTER (WHERE kind = 'block') AS blocks, count(*) FILTER (WHERE kind = 'mute') AS mutes, (SELECT count(*) FROM muted_words) AS words FROM person_filters`);
  console.log(`  filters: ${n.blocks} blocks, ${n.mutes} mutes, ${n.words} muted words in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const { timelineShownSql } = await import('../services/search/dist/search/search-filters.js');
  const { rows } = await db.query(`EXPLAIN SELECT t.id FROM timelines t WHERE t.listed AND t.document @@ to_tsquery('simple', $2) AND ${timelineShownSql('$1::uuid')} LIMIT 500`, [SEARCHER, words[5]]);
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  const scans = plan.match(/Seq Scan on (person_filters|muted_words)\b/g) ?? [];
  const indexes = [...new Set([...plan.matchAll(/Index (?:Only )?Scan (?:using|on) "?(\w+)"?/g)].map((m) => m[1]))];
  console.log(`  EXPLAIN timelines   indexes: ${indexes.join(', ')}${scans.length ? `; table scans: ${scans.join(', ')}` : ''}; the filters use indexes only: ${scans.length === 0 ? 'yes' : 'no'}`);
  await fixedRate(gatewayPool, make, RATE, 5);
  const withFilters = await fixedRate(gatewayPool, make, RATE, SECONDS);
  console.log(`  ${'kind'.padEnd(11)} ${'p99 without'.padStart(12)} ${'p99 with'.padStart(12)}  errors`);
  for (const kind of KINDS) {
    const a = without.kinds[kind];
    const b = withFilters.kinds[kind];
    console.log(`  ${kind.padEnd(11)} ${ms(a.p99).padStart(12)} ${ms(b.p99).padStart(12)}  ${a.errors} / ${b.errors}${b.firstError ? ` (${b.firstError})` : ''}`);
  }
  const worst = (r) => Math.max(...Object.values(r.kinds).map((k) => k.p99));
  const ratio = worst(withFilters) / worst(without);
  console.log(`  worst kind's p99: without ${ms(worst(without)).trim()}, with ${ms(worst(withFilters)).trim()} (${((ratio - 1) * 100).toFixed(0)} %; within 15 %: ${ratio <= 1.15 ? 'met' : 'not met'})`);
}

let authBus;
let gatewayPool;
let gatewayHeaders = {};

async function main() {
  const dbName = `search_bench_${randomBytes(4).toString('hex')}`;
  const dbUrl = await scratchDatabase(ADMIN_URL, dbName, { keep: Boolean(env.SEARCH_BENCH_KEEP) });
  const prefix = `searchbench${randomBytes(3).toString('hex')}`;
  const natsUrl = env.NATS_URL || 'nats://127.0.0.1:4222';
  removeStreams(natsUrl, prefix);
  removeDir(join(tmpdir(), prefix));
  const common = {
    PATH: env.PATH ?? '',
    DATABASE_URL: dbUrl,
    NATS_URL: natsUrl,
    BUS_PREFIX: prefix,
    DATA_DIR: join(tmpdir(), prefix),
    INTERNAL_SECRET: randomBytes(32).toString('hex'),
    NODE_ENV: 'production',
  };
  let db;
  try {
    console.log(`database ${dbName}, bus prefix ${prefix}`);
    const [searchPort, gatewayPort, gatewayInternalPort] = [await freePort(), await freePort(), await freePort()];
    await startProcess(ROOT, 'search', 'services/search/dist/main.js', common, searchPort);
    // The gateway's other upstreams are never called here.
    const nowhere = 'http://127.0.0.1:9';
    await startProcess(ROOT, 'gateway', 'gateway/dist/main.js', {
      ...common,
      SEARCH_SERVICE_URL: `http://127.0.0.1:${searchPort}`,
      AUTH_SERVICE_URL: nowhere, TIMELINES_SERVICE_URL: nowhere, SOCIAL_SERVICE_URL: nowhere, MEDIA_SERVICE_URL: nowhere, NOTIFICATIONS_SERVICE_URL: nowhere,
      RATE_LIMIT_MAX: '100000000',
      CONTENT_RATE_LIMIT_MAX: '100000000',
      // The load's connections all come from one address (the bench's pool).
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      INTERNAL_PORT: String(gatewayInternalPort),
    }, gatewayPort, gatewayInternalPort);
    console.log(`gateway :${gatewayPort}, search :${searchPort}`);
    // Search needs a signed-in caller through the gateway (gateway README, "Signed-out callers"):
    // the bench answers the gateway's session check for one token, as the auth service would.
    const token = randomBytes(32).toString('base64url');
    const tokenHash = createHash('sha256').update(token).digest('hex');
    authBus = await createEventBus({ natsUrl, prefix, name: 'search-bench-auth' });
    onCleanup('the session check', () => authBus.close());
    await serveRpc(authBus, AuthRpc.VerifySession, 'auth', async (request) =>
      request.tokenHash === tokenHash
        ? { valid: true, userId: SEARCHER, sessionId: randomUUID(), expiresAt: timestampFromMs(Date.now() + 3_600_000) }
        : { valid: false });
    gatewayHeaders = { authorization: `Bearer ${token}` };

    db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    onCleanup('the seeding connection', () => db.end());
    await db.query('SET search_path TO search');
    const words = vocabulary(SIZES.words);
    const t0 = performance.now();
    await seed(db, words);
    console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    const make = await queries(db, words);

    gatewayPool = new Pool(`http://127.0.0.1:${gatewayPort}`, { connections: 64 });
    const paths = { gateway: gatewayPool, direct: new Pool(`http://127.0.0.1:${searchPort}`, { connections: 64 }) };
    const results = {};
    for (const [path, pool] of PHASES.includes('search') ? Object.entries(paths) : []) {
      await fixedRate(pool, make, RATE, 5); // warm-up: connections, plans, caches
      const r = await fixedRate(pool, make, RATE, SECONDS);
      results[path] = r;
      console.log(`\n${path}: ${RATE} queries/s asked, ${r.achieved.toFixed(0)}/s achieved, ${SECONDS} s`);
      console.log(`  ${'kind'.padEnd(11)} ${'n'.padStart(5)} ${'p50'.padStart(9)} ${'p95'.padStart(9)} ${'p99'.padStart(9)} ${'max'.padStart(9)}  errors`);
      for (const [kind, k] of Object.entries(r.kinds)) {
        console.log(`  ${kind.padEnd(11)} ${String(k.n).padStart(5)} ${ms(k.p50)} ${ms(k.p95)} ${ms(k.p99)} ${ms(k.max)}  ${k.errors}${k.firstError ? ` (${k.firstError})` : ''}`);
      }
      await sleep(1000);
    }
    if (PHASES.includes('filters')) await filtersPhase(db, make, words);
    for (const pool of Object.values(paths)) await pool.close();

    console.log('\nsizes:');
    const sizes = (await db.query(`SELECT c.relname AS name, c.relkind AS kind, pg_relation_size(c.oid) AS bytes
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'search' AND c.relkind IN ('r', 'i') AND pg_relation_size(c.oid) > 65536 ORDER BY c.relkind DESC, pg_relation_size(c.oid) DESC`)).rows;
    for (const s of sizes) console.log(`  ${s.kind === 'r' ? 'table' : 'index'} ${s.name.padEnd(36)} ${mb(Number(s.bytes)).padStart(10)}`);

    if (!results.gateway || !results.direct) return;
    const worst = Math.max(...Object.values(results.gateway.kinds).map((k) => k.p95));
    const typeAhead = results.direct.kinds['type-ahead'].p95;
    console.log(`\nbars: every kind's p95 through the gateway ≤ 30 ms: ${ms(worst).trim()} (${worst <= 30 ? 'met' : 'not met'}); type-ahead p95 at the service ≤ 10 ms: ${ms(typeAhead).trim()} (${typeAhead <= 10 ? 'met' : 'not met'})`);
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  if (interrupted()) return;
  console.error(error);
  process.exitCode = 1;
});
