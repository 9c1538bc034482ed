import { clipCodeUnits, isUuid, MissingReferenceError, on } from '@timeliner/platform';
import { AuthEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { isDeletedAccount as deletedAccount } from './deleted-users.js';
import { displayNameOf } from './user-names.js';
import { UserRecord } from './user.entity.js';

/** The account's private flag: always on UserRegistered, on UserUpdated only when the edit changed it. */
export const privateFlagOf = (event: { isPrivate?: boolean }): boolean | undefined => event.isPrivate;

/** Names are stored with the rows that show them; a registration or rename reaches every one. */
async function renameAuthor(manager: EntityManager, userId: string, name: string): Promise<void> {
  await manager.query('UPDATE timeline_comments SET user_name = $2 WHERE user_id = $1 AND user_name <> $2', [userId, clipCodeUnits(name, 100)]);
  await manager.query('UPDATE video_comments SET user_name = $2 WHERE user_id = $1 AND user_name <> $2', [userId, clipCodeUnits(name, 100)]);
  await manager.query('UPDATE post_comments SET user_name = $2 WHERE user_id = $1 AND user_name <> $2', [userId, clipCodeUnits(name, 100)]);
}

/** Called in the event's transaction when an account that was private is public from now on. */
export type MadePublic = (manager: EntityManager, userId: string, requestId: string) => Promise<void>;

/**
 * Keeps the local read model of people (users table) in step with the auth service. A change for
 * someone not registered here yet waits for the registration (MissingReferenceError); one for a
 * deleted account, or its registration coming after the deletion, changes nothing. An account
 * turning public calls `madePublic` (its pending follow requests are approved).
 */
export const userEventHandlersWith = (madePublic?: MadePublic) => [
  on(AuthEvents.UserRegistered, async (user, meta, manager) => {
    if (!isUuid(user.userId)) return;
    if (await deletedAccount(manager, user.userId.toLowerCase())) return;
    const record = {
      id: user.userId.toLowerCase(),
      username: clipCodeUnits(user.username, 30),
      displayName: clipCodeUnits(user.displayName, 100),
      avatar: user.avatar ? clipCodeUnits(user.avatar, 2048) : null,
      isPrivate: privateFlagOf(user) ?? false,
      profileVersion: user.profileVersion.toString(),
      // The registration's time: how old the account is (comment controls hold new accounts' comments).
      registeredAt: new Date(meta.occurredAt),
    };
    // A copy already at a later profile version (its UserUpdated came first) stays as it is.
    const held = await manager.findOne(UserRecord, { where: { id: record.id }, lock: { mode: 'pessimistic_write' } });
    if (held && BigInt(held.profileVersion) > user.profileVersion) return;
    await manager.upsert(UserRecord, record, ['id']);
    // Comments written before this event arrived carry no name yet.
    await renameAuthor(manager, record.id, displayNameOf(record));
  }),
  on(AuthEvents.UserUpdated, async (change, meta, manager) => {
    if (!isUuid(change.userId)) return;
    const user = await manager.findOne(UserRecord, { where: { id: change.userId.toLowerCase() }, lock: { mode: 'pessimistic_write' } });
    if (!user) {
      if (await deletedAccount(manager, change.userId.toLowerCase())) return;
      // Registration comes on another subject, which may be behind: tried again until it is in.
      throw new MissingReferenceError('user', change.userId.toLowerCase());
    }
    if (change.profileVersion > 0n) {
      // The whole profile at that version: taken over an older copy only (retries come out of order).
      if (BigInt(user.profileVersion) >= change.profileVersion) return;
      const before = displayNameOf(user);
      const wasPrivate = user.isPrivate;
      user.displayName = clipCodeUnits(change.displayName ?? '', 100);
      if (change.username) user.username = clipCodeUnits(change.username, 30);
      user.avatar = change.avatar ? clipCodeUnits(change.avatar, 2048) : null;
      user.isPrivate = change.isPrivate ?? false;
      user.profileVersion = change.profileVersion.toString();
      await manager.save(UserRecord, user);
      if (displayNameOf(user) !== before) await renameAuthor(manager, user.id, displayNameOf(user));
      if (wasPrivate && !user.isPrivate) await madePublic?.(manager, user.id, meta.requestId ?? meta.id);
      return;
    }
    // An event from before versions: only what changed is present; an empty string means the field was cleared.
    if (change.displayName !== undefined) user.displayName = clipCodeUnits(change.displayName, 100);
    if (change.username !== undefined && change.username !== '') user.username = clipCodeUnits(change.username, 30);
    if (change.avatar !== undefined) user.avatar = change.avatar === '' ? null : clipCodeUnits(change.avatar, 2048);
    const isPrivate = privateFlagOf(change);
    const wasPrivate = user.isPrivate;
    if (isPrivate !== undefined) user.isPrivate = isPrivate;
    await manager.save(UserRecord, user);
    if (wasPrivate && !user.isPrivate) await madePublic?.(manager, user.id, meta.requestId ?? meta.id);
    if (change.displayName !== undefined || change.username !== undefined) await renameAuthor(manager, user.id, displayNameOf(user));
  }),
];

/** The handlers without anything to do when an account turns public (read-model tests and rebuilds). */
export const userEventHandlers = userEventHandlersWith();
