import { clipCodePoints, isUuid, MissingReferenceError, on } from '@timeliner/platform';
import { AuthEvents, SocialEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';

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

/** Throws MissingReferenceError for a person whose registration has not been applied here yet. */
async function knownUser(manager: EntityManager, id: string): Promise<void> {
  const rows: unknown[] = await manager.query('SELECT 1 FROM users WHERE id = $1', [id]);
  if (rows.length === 0) throw new MissingReferenceError('user', id);
}

/** Keeps the people read model in step with the auth service (profiles) and the social service (follower counts). */
export const userEventHandlers = [
  on(AuthEvents.UserRegistered, async (user, _meta, manager) => {
    if (!isUuid(user.userId) || user.username === '') return;
    const id = user.userId.toLowerCase();
    // A copy already at a later profile version (its UserUpdated came first) stays as it is.
    await manager.query(
      `INSERT INTO users (id, username, display_name, avatar, is_private, profile_version) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET username = EXCLUDED.username, display_name = EXCLUDED.display_name, avatar = EXCLUDED.avatar, is_private = EXCLUDED.is_private,
         profile_version = EXCLUDED.profile_version, updated_at = now()
       WHERE users.profile_version <= EXCLUDED.profile_version`,
      [id, clipCodePoints(user.username, 30), clipCodePoints(user.displayName, 100), user.avatar ? clipCodePoints(user.avatar, 2048) : null, optionalBoolean(user, 'isPrivate') ?? false, user.profileVersion.toString()],
    );
    await renameCreator(manager, id);
  }),
  on(AuthEvents.UserUpdated, async (change, _meta, manager) => {
    if (!isUuid(change.userId)) return;
    const id = change.userId.toLowerCase();
    if (change.profileVersion > 0n) {
      // The whole profile at that version: taken over an older copy only (retries come out of order).
      await knownUser(manager, id);
      const updated = (await manager.query(
        `UPDATE users SET username = $2, display_name = $3, bio = $4, avatar = $5, is_private = $6, profile_version = $7, updated_at = now()
         WHERE id = $1 AND profile_version < $7 RETURNING id`,
        [id, clipCodePoints(change.username ?? '', 30), clipCodePoints(change.displayName ?? '', 100), clipCodePoints(change.bio ?? '', 500), change.avatar ? clipCodePoints(change.avatar, 2048) : null, change.isPrivate ?? false, change.profileVersion.toString()],
      )) as [unknown[], number];
      if (updated[1] > 0) await renameCreator(manager, id);
      return;
    }
    // An event from before versions: only what changed is present; an empty string means the field was cleared.
    const set: string[] = [];
    const params: unknown[] = [id];
    const assign = (column: string, value: unknown) => {
      params.push(value);
      set.push(`${column} = $${params.length}`);
    };
    if (change.displayName !== undefined) assign('display_name', clipCodePoints(change.displayName, 100));
    if (change.username !== undefined && change.username !== '') assign('username', clipCodePoints(change.username, 30));
    if (change.bio !== undefined) assign('bio', clipCodePoints(change.bio, 500));
    if (change.avatar !== undefined) assign('avatar', change.avatar === '' ? null : clipCodePoints(change.avatar, 2048));
    const isPrivate = optionalBoolean(change, 'isPrivate');
    if (isPrivate !== undefined) assign('is_private', isPrivate);
    if (set.length === 0) return;
    // Registration comes on another subject, which may be behind: tried again until it is in.
    await knownUser(manager, id);
    await manager.query(`UPDATE users SET ${set.join(', ')}, updated_at = now() WHERE id = $1`, params);
    if (change.username !== undefined && change.username !== '') await renameCreator(manager, id);
  }),
  on(SocialEvents.FollowChanged, async (follow, _meta, manager) => {
    if (!isUuid(follow.followeeId)) return;
    await knownUser(manager, follow.followeeId.toLowerCase());
    const followers = Number(follow.followersCount < 0n ? 0n : follow.followersCount > 2_147_483_647n ? 2_147_483_647n : follow.followersCount);
    await manager.query(
      `UPDATE users SET followers_count = $2, followers_version = $3 WHERE id = $1 AND followers_version < $3`,
      [follow.followeeId.toLowerCase(), followers, follow.followersVersion.toString()],
    );
  }),
];
