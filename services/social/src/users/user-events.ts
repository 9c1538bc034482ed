import { on } from '@timeliner/platform';
import { AuthEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { isUuid } from '../ids.js';
import { displayNameOf } from './user-names.js';
import { UserRecord } from './user.entity.js';

const clip = (value: string, max: number) => value.slice(0, max);

/** The account's private flag: always on UserRegistered, on UserUpdated only when the edit changed it. */
export const privateFlagOf = (event: { isPrivate?: boolean }): boolean | undefined => event.isPrivate;

/** Names are stored with the rows that show them; a registration or rename reaches every one. */
async function renameAuthor(manager: EntityManager, userId: string, name: string): Promise<void> {
  await manager.query('UPDATE timeline_comments SET user_name = $2 WHERE user_id = $1 AND user_name <> $2', [userId, clip(name, 100)]);
  await manager.query('UPDATE video_comments SET user_name = $2 WHERE user_id = $1 AND user_name <> $2', [userId, clip(name, 100)]);
  await manager.query('UPDATE post_comments SET user_name = $2 WHERE user_id = $1 AND user_name <> $2', [userId, clip(name, 100)]);
}

/** Keeps the local read model of people (users table) in step with the auth service. */
export const userEventHandlers = [
  on(AuthEvents.UserRegistered, async (user, _meta, manager) => {
    if (!isUuid(user.userId)) return;
    const record = {
      id: user.userId.toLowerCase(),
      username: clip(user.username, 30),
      displayName: clip(user.displayName, 100),
      avatar: user.avatar ? clip(user.avatar, 2048) : null,
      isPrivate: privateFlagOf(user) ?? false,
    };
    await manager.upsert(UserRecord, record, ['id']);
    // Comments written before this event arrived carry no name yet.
    await renameAuthor(manager, record.id, displayNameOf(record));
  }),
  on(AuthEvents.UserUpdated, async (change, _meta, manager) => {
    if (!isUuid(change.userId)) return;
    const user = await manager.findOneBy(UserRecord, { id: change.userId.toLowerCase() });
    // Registration comes first on the same stream; an update for someone unknown has nothing to change.
    if (!user) return;
    // Only what changed is present; an empty string means the field was cleared.
    if (change.displayName !== undefined) user.displayName = clip(change.displayName, 100);
    if (change.username !== undefined && change.username !== '') user.username = clip(change.username, 30);
    if (change.avatar !== undefined) user.avatar = change.avatar === '' ? null : clip(change.avatar, 2048);
    const isPrivate = privateFlagOf(change);
    if (isPrivate !== undefined) user.isPrivate = isPrivate;
    await manager.save(UserRecord, user);
    if (change.displayName !== undefined || change.username !== undefined) await renameAuthor(manager, user.id, displayNameOf(user));
  }),
];
