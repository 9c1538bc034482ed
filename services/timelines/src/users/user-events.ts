import { clipCodeUnits, type EventMeta, isUuid, MissingReferenceError, on, Outbox } from '@timeliner/platform';
import { AuthEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { publishSnapshots, snapshotContext } from '../timelines/snapshot.js';
import { displayNameOf, lockPerson } from './user-directory.js';
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

/** Keeps the local read model of people (users table) in step with the auth service. */
export const userEventHandlers = [
  on(AuthEvents.UserRegistered, async (user, meta, manager) => {
    if (!isUuid(user.userId)) return;
    const record = {
      id: user.userId,
      username: clipCodeUnits(user.username, 30),
      displayName: clipCodeUnits(user.displayName, 100),
      email: clipCodeUnits(user.email.trim().toLowerCase(), 254),
      avatar: user.avatar ? clipCodeUnits(user.avatar, 2048) : null,
      isPrivate: user.isPrivate ?? false,
      profileVersion: user.profileVersion.toString(),
    };
    // Waits for a timeline, collaborator or invitation being written with this person's name.
    await lockPerson(manager, user.userId);
    // A copy already at a later profile version (its UserUpdated came first) stays as it is.
    const held = await manager.findOneBy(UserRecord, { id: user.userId });
    if (held && BigInt(held.profileVersion) > user.profileVersion) return;
    await manager.upsert(UserRecord, record, ['id']);
    await renamePerson(manager, user.userId, displayNameOf(record), meta);
  }),
  on(AuthEvents.UserUpdated, async (change, meta, manager) => {
    if (!isUuid(change.userId)) return;
    await lockPerson(manager, change.userId);
    const user = await manager.findOneBy(UserRecord, { id: change.userId });
    // Registration comes on another subject, which may be behind: tried again until it is in.
    if (!user) throw new MissingReferenceError('user', change.userId);
    if (change.profileVersion > 0n) {
      // The whole profile at that version: taken over an older copy only (retries come out of order).
      if (BigInt(user.profileVersion) >= change.profileVersion) return;
      const before = displayNameOf(user);
      user.displayName = clipCodeUnits(change.displayName ?? '', 100);
      if (change.username) user.username = clipCodeUnits(change.username, 30);
      user.avatar = change.avatar ? clipCodeUnits(change.avatar, 2048) : null;
      if (change.email) user.email = clipCodeUnits(change.email.trim().toLowerCase(), 254);
      user.isPrivate = change.isPrivate ?? false;
      user.profileVersion = change.profileVersion.toString();
      await manager.save(UserRecord, user);
      if (displayNameOf(user) !== before) await renamePerson(manager, user.id, displayNameOf(user), meta);
      return;
    }
    // An event from before versions: only what changed is present; an empty string means the field was cleared.
    if (change.displayName !== undefined) user.displayName = clipCodeUnits(change.displayName, 100);
    if (change.username !== undefined && change.username !== '') user.username = clipCodeUnits(change.username, 30);
    if (change.avatar !== undefined) user.avatar = change.avatar === '' ? null : clipCodeUnits(change.avatar, 2048);
    if (change.email !== undefined && change.email !== '') user.email = clipCodeUnits(change.email.trim().toLowerCase(), 254);
    if (change.isPrivate !== undefined) user.isPrivate = change.isPrivate;
    await manager.save(UserRecord, user);
    if (change.displayName !== undefined || change.username !== undefined) await renamePerson(manager, user.id, displayNameOf(user), meta);
  }),
];
