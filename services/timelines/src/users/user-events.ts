import { type EventMeta, on, Outbox } from '@timeliner/platform';
import { AuthEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { isUuid } from '../ids.js';
import { publishSnapshots, snapshotContext } from '../timelines/snapshot.js';
import { displayNameOf } from './user-directory.js';
import { UserRecord } from './user.entity.js';

/**
 * Names are stored with the rows that show them; a rename reaches every one of them. Each timeline
 * whose creator name changed gets a snapshot of its own (in the same transaction).
 */
async function renamePerson(manager: EntityManager, userId: string, name: string, meta: EventMeta): Promise<void> {
  // Wrapped in a CTE so the driver answers with the returned rows, as for a SELECT.
  const renamed = (await manager.query(
    'WITH renamed AS (UPDATE timelines SET creator_name = $2 WHERE creator_id = $1 AND creator_name <> $2 RETURNING id) SELECT id FROM renamed',
    [userId, name],
  )) as Array<{ id: string }>;
  await publishSnapshots(manager, Outbox, renamed.map((r) => r.id), snapshotContext(meta));
  await manager.query('UPDATE collaborators SET user_name = $2 WHERE user_id = $1 AND user_name <> $2', [userId, name]);
  await manager.query(`UPDATE invitations SET inviter_name = $2 WHERE inviter_user_id = $1 AND status = 'pending' AND inviter_name <> $2`, [userId, name]);
}

const clip = (value: string, max: number) => value.slice(0, max);

/** Keeps the local read model of people (users table) in step with the auth service. */
export const userEventHandlers = [
  on(AuthEvents.UserRegistered, async (user, meta, manager) => {
    if (!isUuid(user.userId)) return;
    const record = {
      id: user.userId,
      username: clip(user.username, 30),
      displayName: clip(user.displayName, 100),
      email: clip(user.email.trim().toLowerCase(), 254),
      avatar: user.avatar ? clip(user.avatar, 2048) : null,
    };
    await manager.upsert(UserRecord, record, ['id']);
    await renamePerson(manager, user.userId, displayNameOf(record), meta);
  }),
  on(AuthEvents.UserUpdated, async (change, meta, manager) => {
    if (!isUuid(change.userId)) return;
    const user = await manager.findOneBy(UserRecord, { id: change.userId });
    // Registration comes first on the same stream; an update for someone unknown has nothing to change.
    if (!user) return;
    // Only what changed is present; an empty string means the field was cleared.
    if (change.displayName !== undefined) user.displayName = clip(change.displayName, 100);
    if (change.username !== undefined && change.username !== '') user.username = clip(change.username, 30);
    if (change.avatar !== undefined) user.avatar = change.avatar === '' ? null : clip(change.avatar, 2048);
    await manager.save(UserRecord, user);
    if (change.displayName !== undefined || change.username !== undefined) await renamePerson(manager, user.id, displayNameOf(user), meta);
  }),
];
