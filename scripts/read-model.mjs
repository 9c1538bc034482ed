#!/usr/bin/env node
// Rebuilds a service's read models (its copies of other services' data) from the producers'
// current state, while everything keeps running: the service applies the producers' replayed rows
// as it applies their events (the newer version wins), then removes the rows the producers no
// longer have. For a service deployed after the stream's retention (7 days), or an index whose
// schema changed. Safe to run again at any time; one rebuild at a time per service.
//
//   npm run read-model -- rebuild search [--model timelines]
//
// The services and their models (without --model, all of the service's, one after the other):
//   search         timelines, people, moderation, account-deletions
//   social         timelines (the feed's), people, media, account-deletions
//   timelines      people, likes, comments, alt-texts, moderation, account-deletions
//   notifications  timelines, people, members, videos, moderation, account-deletions
//   auth           follows
// (k8s/OPERATIONS.md, "Rebuilding a read model"; services/platform/src/bus/README.md lists the
// copies that cannot be rebuilt yet.)
//
// Prints a progress line per model every few seconds (rows done/total, rate, ETA) and exits 0 when
// every model is rebuilt, 1 when one failed (the service's log has the error), 2 when nothing was
// heard for --quiet-timeout seconds (default 120). Env: NATS_URL (nats://127.0.0.1:4222),
// BUS_PREFIX (tl). Without NATS_URL, a running `npm start` (in-process bus, embedded Postgres) is
// reached through its socket under DATA_DIR (.data/read-model.sock), when there is one. Needs the
// built platform (`npm run build`).
import { fromBinary } from '@bufbuild/protobuf';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { createEventBus, createLogger, READ_MODEL_SOCKET, requestRpc } from '@timeliner/platform';
import { ReadModelProgressSchema, ReadModelRebuild } from '@timeliner/proto';

const [command, service, ...rest] = process.argv.slice(2);
const option = (name) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : undefined;
};
if (command !== 'rebuild' || !service) {
  console.error('usage: npm run read-model -- rebuild <service> [--model <name>] [--quiet-timeout <seconds>]');
  console.error('  search: timelines, people, moderation, account-deletions; social: timelines, people, media, account-deletions; timelines: people, likes, comments, alt-texts, moderation, account-deletions; notifications: timelines, people, members, videos, moderation, account-deletions; auth: follows');
  process.exit(64);
}
const model = option('model') ?? '';
const quietMs = Number(option('quiet-timeout') ?? 120) * 1000;

const seconds = (s) => (s >= 90 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s.toFixed(1)}s`);
const line = (p) => {
  const done = Number(p.done);
  const total = Math.max(Number(p.total), done);
  const eta = p.rate > 0 && !p.finished && done < total ? ` ETA ${seconds((total - done) / p.rate)}` : '';
  const state = p.error
    ? `FAILED: ${p.error}`
    : p.finished
      ? `done in ${seconds(p.elapsedSeconds)}, ${Number(p.removed)} removed`
      : done < total
        ? 'rebuilding'
        : 'looking for rows the producer no longer has';
  return `${new Date().toISOString()} ${service}/${p.model} ${done}/${total} ${total > 0 ? ((100 * done) / total).toFixed(1) : '100.0'}% ${Math.round(p.rate)} rows/s${eta} ${state}`;
};

// `npm start` (in-process bus): its socket under DATA_DIR, when NATS_URL is not set and it runs.
const socketPath = path.resolve(process.env.DATA_DIR || '.data', READ_MODEL_SOCKET);
if (!process.env.NATS_URL && existsSync(socketPath)) process.exit(await overSocket());

async function overSocket() {
  return new Promise((resolve) => {
    let code = 2;
    let lastHeard = Date.now();
    let lastPrinted = 0;
    let buffered = '';
    const socket = connect(socketPath, () => socket.write(`${JSON.stringify({ service, model })}\n`));
    const quiet = setInterval(() => {
      if (Date.now() - lastHeard > quietMs) {
        console.error(`${service}: no progress for ${quietMs / 1000} s; the process's log says why. Run it again.`);
        socket.destroy();
      }
    }, 1_000);
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        lastHeard = Date.now();
        if (message.error) {
          console.error(`${service}: ${message.error}`);
          code = 1;
        } else if (message.reply) {
          const { rebuildId, models, alreadyRunning } = message.reply;
          if (alreadyRunning) console.log(`${service}: a rebuild is already running (${models.join(', ')}); following its progress`);
          else console.log(`${service}: rebuilding ${models.join(', ')} (rebuild ${rebuildId})`);
          code = 0;
        } else if (message.progress) {
          const p = message.progress;
          if (p.finished || p.error || Date.now() - lastPrinted > 2_000) {
            lastPrinted = Date.now();
            console.log(line(p));
          }
          if (p.error) code = 1;
        }
      }
    });
    socket.on('error', (error) => {
      console.error(`${service}: ${error.message} (is \`npm start\` running with DATA_DIR=${process.env.DATA_DIR || '.data'}?)`);
      code = 1;
    });
    socket.on('close', () => {
      clearInterval(quiet);
      resolve(code);
    });
  });
}

const logger = createLogger('read-model', process.env.LOG_LEVEL ?? 'warn');
const bus = await createEventBus({ natsUrl: process.env.NATS_URL || 'nats://127.0.0.1:4222', prefix: process.env.BUS_PREFIX || 'tl', name: 'read-model-cli', logger });

let exitCode = 0;
try {
  const pending = new Set();
  let lastHeard = Date.now();
  let lastPrinted = 0;
  let rebuildId = '';
  let resolveAll;
  const all = new Promise((resolve) => (resolveAll = resolve));
  const sub = await bus.subscribe(ReadModelRebuild.progressSubject(service), (message) => {
    const p = fromBinary(ReadModelProgressSchema, message.data);
    if (rebuildId && p.rebuildId !== rebuildId) return;
    lastHeard = Date.now();
    if (p.finished || p.error || Date.now() - lastPrinted > 2_000) {
      lastPrinted = Date.now();
      console.log(line(p));
    }
    if (p.finished) {
      if (p.error) exitCode = 1;
      pending.delete(p.model);
      if (pending.size === 0) resolveAll();
    }
  });
  const reply = await requestRpc(bus, ReadModelRebuild.rpc(service), { model }, { timeoutMs: 10_000 });
  rebuildId = reply.rebuildId;
  for (const name of reply.models) pending.add(name);
  if (reply.alreadyRunning) console.log(`${service}: a rebuild is already running (${reply.models.join(', ')}); following its progress`);
  else console.log(`${service}: rebuilding ${reply.models.join(', ')} (rebuild ${rebuildId})`);
  const quiet = setInterval(() => {
    if (Date.now() - lastHeard > quietMs) {
      console.error(`${service}: no progress for ${quietMs / 1000} s: the replica doing it stopped, or the producer does not answer its replay requests; the service's log says which. Run it again.`);
      exitCode = 2;
      resolveAll();
    }
  }, 1_000);
  await all;
  clearInterval(quiet);
  await sub.unsubscribe();
} catch (error) {
  console.error(`${service}: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await bus.close();
}
process.exit(exitCode);
