import { idOf, on } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';

/**
 * Private accounts (spec 001 `users.isPrivate`): a private account's timelines, whatever their own
 * visibility, are seen only by the account itself, its collaborators on them and its approved
 * followers. The privacy comes from the auth events (users.is_private), the followers from the
 * social service's FollowChanged events (account_follows).
 */

/**
 * SQL that is true when the private account `creatorSql` hides its timelines from the caller
 * `callerSql` (a uuid parameter, NULL for anonymous callers): the account is private and the
 * caller is neither it nor an approved follower. Collaborators are let in by the caller's role,
 * before this is asked.
 */
export const hiddenByPrivateAccount = (creatorSql: string, callerSql: string): string => `EXISTS (
  SELECT 1 FROM users pa WHERE pa.id = ${creatorSql} AND pa.is_private
     AND (${callerSql}::uuid IS NULL OR (${callerSql}::uuid <> ${creatorSql}
          AND NOT EXISTS (SELECT 1 FROM account_follows af WHERE af.followee_id = ${creatorSql} AND af.follower_id = ${callerSql}::uuid AND af.active))))`;

/** Keeps account_follows from FollowChanged: the newest version of each pair wins. */
export const accountFollowEventHandlers = [
  on(SocialEvents.FollowChanged, async (change, _meta, manager) => {
    const followerId = idOf(change.followerId);
    const followeeId = idOf(change.followeeId);
    if (!followerId || !followeeId) return;
    await manager.query(
      `INSERT INTO account_follows (followee_id, follower_id, active, version) VALUES ($1, $2, $3, $4)
       ON CONFLICT (followee_id, follower_id) DO UPDATE SET active = EXCLUDED.active, version = EXCLUDED.version
        WHERE account_follows.version < EXCLUDED.version`,
      [followeeId, followerId, change.active, change.followersVersion.toString()],
    );
  }),
];
