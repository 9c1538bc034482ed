#!/usr/bin/env node
// Dead letters: events a consumer group gave up on (they failed on their own content after
// bounded tries, or could never be handled). They stay in the <PREFIX>_DEAD_LETTERS stream for
// 30 days; `/metrics` shows their number per group (events_dead_letters).
//
//   node scripts/dead-letters.mjs list [--group social]
//   node scripts/dead-letters.mjs replay [--group social] [--seq 3,4]
//
// `replay` publishes each chosen event again on its subject (same event id, so the groups that
// applied it skip it) and removes it from the dead-letter stream. Fix the cause first (deploy the
// handler's fix), then replay. Env: NATS_URL (nats://127.0.0.1:4222), BUS_PREFIX (tl). Needs the
// built platform (`npm run build`).
import { DeadLetterAdmin } from '@timeliner/platform';

const [command, ...rest] = process.argv.slice(2);
const option = (name) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : undefined;
};
if (!['list', 'replay'].includes(command)) {
  console.error('usage: node scripts/dead-letters.mjs list|replay [--group <consumer group>] [--seq <n,n>]');
  process.exit(64);
}
const admin = await DeadLetterAdmin.open(process.env.NATS_URL || 'nats://127.0.0.1:4222', process.env.BUS_PREFIX || 'tl');
try {
  const group = option('group');
  if (command === 'list') {
    const letters = await admin.list(group ? { group } : {});
    for (const l of letters) console.log(`${String(l.seq).padStart(6)}  ${l.at}  ${l.group.padEnd(12)} ${l.subject}  ${l.eventId}  after ${l.attempts} tries: ${l.error}`);
    console.log(`${letters.length} dead letter(s)`);
  } else {
    const seqs = option('seq')?.split(',').map(Number);
    const replayed = await admin.replay({ ...(group ? { group } : {}), ...(seqs ? { seqs } : {}) });
    console.log(`${replayed} dead letter(s) replayed`);
  }
} finally {
  await admin.close();
}
