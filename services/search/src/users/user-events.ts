import { on } from '@timeliner/platform';
import { AuthEvents, SocialEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { clip, isUuid } from '../ids.js';

/** A flag the event may carry (fields added to the auth events are read by name). */
const optionalBoolean = (event: object, field: string): boolean | undefined => {
  const value = (event as Record<string, unknown>)[field];
  return typeof value === 'boolean' ? value : undefined;
};

/** A person's timelines are found by their username too: a new or changed one reaches them all. */
async function renameCreator(manager: EntityManager, userId: string): Promise<void> {
  await manager.query(
    `UPDATE timelines t SET creator_username = u.username FROM users u WHERE u.id = $1 AND t.creator_id = $1 AND t.creator_username <> u.username`,
    [userId],
  );
}

/** Keeps the people read model in step with the auth service (profiles) and the social service (follower counts). */
export const userEventHandlers = [
  on(AuthEvents.UserRegistered, async (user, _meta, manager) => {
    if (!isUuid(user.userId) || user.username === '') return;
    const id = user.userId.toLowerCase();
    await manager.query(
      `INSERT INTO users (id, username, display_name, avatar, is_private) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET username = EXCLUDED.username, display_name = EXCLUDED.display_name, avatar = EXCLUDED.avatar, is_private = EXCLUDED.is_private, updated_at = now()`,
      [id, clip(user.username, 30), clip(user.displayName, 100), user.avatar ? clip(user.avatar, 2048) : null, optionalBoolean(user, 'isPrivate') ?? false],
    );
    await renameCreator(manager, id);
  }),
  on(AuthEvents.UserUpdated, async (change, _meta, manager) => {
    if (!isUuid(change.userId)) return;
    const id = change.userId.toLowerCase();
    // Only what changed is present; an empty string means the field was cleared.
    const set: string[] = [];
    const params: unknown[] = [id];
    const assign = (column: string, value: unknown) => {
      params.push(value);
      set.push(`${column} = $${params.length}`);
    };
    if (change.displayName !== undefined) assign('display_name', clip(change.displayName, 100));
    if (change.username !== undefined && change.username !== '') assign('username', clip(change.username, 30));
    if (change.bio !== undefined) assign('bio', clip(change.bio, 500));
    if (change.avatar !== undefined) assign('avatar', change.avatar === '' ? null : clip(change.avatar, 2048));
    const isPrivate = optionalBoolean(change, 'isPrivate');
    if (isPrivate !== undefined) assign('is_private', isPrivate);
    if (set.length === 0) return;
    // Registration comes first on the same stream; an update for someone unknown has nothing to change.
    await manager.query(`UPDATE users SET ${set.join(', ')}, updated_at = now() WHERE id = $1`, params);
    if (change.username !== undefined && change.username !== '') await renameCreator(manager, id);
  }),
  on(SocialEvents.FollowChanged, async (follow, _meta, manager) => {
    if (!isUuid(follow.followeeId)) return;
    const followers = Number(follow.followersCount < 0n ? 0n : follow.followersCount > 2_147_483_647n ? 2_147_483_647n : follow.followersCount);
    await manager.query(
      `UPDATE users SET followers_count = $2, followers_version = $3 WHERE id = $1 AND followers_version < $3`,
      [follow.followeeId.toLowerCase(), followers, follow.followersVersion.toString()],
    );
  }),
];
