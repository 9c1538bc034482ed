#!/usr/bin/env node
// Operator commands. Staff roles of the moderation desk are granted here and nowhere else (never
// through the public API):
//
//   npm run admin -- grant <username> moderator|admin
//   npm run admin -- revoke <username>
//   npm run admin -- roles
//   npm run admin -- delete-account <username> --yes
//
// `delete-account` is for legal requests: the account is deleted at once, without the 30 days of
// grace a person's own request has. Its sessions end, the account goes from the auth service, and
// its UserDeleted event (published by the auth service's outbox relay: at once when the product is
// running, else when it next starts) makes every service forget the person: timelines, items and
// their files, posts, comments, likes, follows, notifications, search documents.
//
// In a container: `node scripts/admin.mjs grant <username> moderator` (docker compose exec social
// ..., kubectl exec deploy/social -- ...). The database is DATABASE_URL's, as the services use it;
// without it, `npm start`'s embedded PostgreSQL under DATA_DIR (default .data): the running one
// when `npm start` is up, else the command starts it for the moment it needs. Every grant and
// revoke is written to the desk's audit log (by "the operator"). A role takes effect at the next
// request: the social service reads it for every moderation request.
//
// Exit codes: 0 done, 1 failed (no such person, database unreachable), 64 usage.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROLES = ['moderator', 'admin'];
const usage = () => {
  console.error('usage: npm run admin -- grant <username> moderator|admin');
  console.error('       npm run admin -- revoke <username>');
  console.error('       npm run admin -- roles');
  console.error('       npm run admin -- delete-account <username> --yes');
  process.exit(64);
};

const [command, username, role] = process.argv.slice(2);
const known = { grant: Boolean(username) && ROLES.includes(role), revoke: Boolean(username), roles: true, 'delete-account': Boolean(username) && (role === undefined || role === '--yes') };
if (!known[command]) usage();
if (command === 'delete-account' && role !== '--yes') {
  console.error(`This deletes the account "${username.replace(/^@/, '')}" and everything it made, at once and for good. Run it again with --yes to go ahead.`);
  process.exit(1);
}

// Loaded after the usage check: a mistyped command answers at once.
const { createLogger, openDatabase, startEmbeddedPostgres } = await import('@timeliner/platform');
const { socialSchema } = await import('@timeliner/social');
const logger = createLogger('admin', process.env.LOG_LEVEL ?? 'warn');

/** The embedded server `npm start` runs under DATA_DIR, when it is up: its port is the fourth line of postmaster.pid. */
function runningEmbedded(dataDir) {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  return Number.isInteger(port) && port > 0 ? `postgres://postgres:embedded@127.0.0.1:${port}/timeliner` : undefined;
}

let embedded;
let databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  const dataDir = path.resolve(process.env.DATA_DIR || '.data');
  databaseUrl = runningEmbedded(dataDir);
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(dataDir, logger);
    databaseUrl = embedded.url;
  }
}

let exitCode = 0;
if (command === 'delete-account') {
  const { authSchema, purgeAccount } = await import('@timeliner/auth');
  const { EventWriter } = await import('@timeliner/platform');
  const auth = await openDatabase({ url: databaseUrl, schema: authSchema.name, entities: authSchema.entities, migrations: authSchema.migrations, poolSize: 1, logger });
  try {
    const name = username.replace(/^@/, '').toLowerCase();
    const [person] = await auth.query('SELECT id, username FROM users WHERE username = $1', [name]);
    if (!person) {
      console.error(`No account named "${name}".`);
      exitCode = 1;
    } else {
      await auth.transaction((manager) => purgeAccount(manager, new EventWriter(), person.id, { requestId: `operator-deletion:${person.id}` }));
      console.log(`Deleted the account ${person.username} (${person.id}) for good. Every service forgets the person as the deletion reaches it.`);
    }
  } catch (error) {
    console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    exitCode = 1;
  } finally {
    await auth.destroy();
    await embedded?.stop();
  }
  process.exit(exitCode);
}

const dataSource = await openDatabase({ url: databaseUrl, schema: socialSchema.name, entities: socialSchema.entities, migrations: socialSchema.migrations, poolSize: 1, logger });
try {
  if (command === 'roles') {
    const rows = await dataSource.query(`SELECT r.role, r.user_id AS "userId", u.username, r.granted_at AS "grantedAt" FROM staff_roles r LEFT JOIN users u ON u.id = r.user_id ORDER BY u.username`);
    if (rows.length === 0) console.log('No moderators or admins.');
    for (const row of rows) console.log(`${row.username ?? row.userId}\t${row.role}\tsince ${new Date(row.grantedAt).toISOString()}`);
  } else {
    const name = username.replace(/^@/, '').toLowerCase();
    const [person] = await dataSource.query('SELECT id, username FROM users WHERE lower(username) = $1', [name]);
    if (!person) {
      console.error(`No account named "${name}".`);
      exitCode = 1;
    } else {
      const changed = await dataSource.transaction(async (manager) => {
        const [before] = await manager.query('SELECT role FROM staff_roles WHERE user_id = $1 FOR UPDATE', [person.id]);
        if (command === 'grant') {
          if (before?.role === role) return false;
          await manager.query(
            `INSERT INTO staff_roles (user_id, role) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET role = $2, granted_at = now()`,
            [person.id, role],
          );
        } else {
          if (!before) return false;
          await manager.query('DELETE FROM staff_roles WHERE user_id = $1', [person.id]);
        }
        await manager.query(
          `INSERT INTO moderation_actions (id, moderator_id, action, subject_user_id, reason) VALUES ($1, NULL, $2, $3, $4)`,
          [randomUUID(), command, person.id, command === 'grant' ? `Operator granted the role ${role}` : `Operator revoked the role ${before.role}`],
        );
        return true;
      });
      if (command === 'grant') console.log(changed ? `${person.username} is now ${role === 'admin' ? 'an admin' : 'a moderator'}.` : `${person.username} was already ${role === 'admin' ? 'an admin' : 'a moderator'}.`);
      else console.log(changed ? `${person.username} no longer has a staff role.` : `${person.username} had no staff role.`);
    }
  }
} catch (error) {
  console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await dataSource.destroy();
  await embedded?.stop();
}
process.exit(exitCode);
