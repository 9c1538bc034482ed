/**
 * The private-account rule as SQL fragments, for the reads of this service to add to their WHERE
 * (spec 001 `users.isPrivate`): a private account's posts, timelines, likes and activity are seen
 * only by the account itself and its approved followers (follows; a pending follow request is not
 * one). `viewer` is the SQL of the caller's id (NULL for anonymous callers), `author` the column
 * of the person whose content it is. Indexes: users by id, follows by its primary key
 * (follower, following).
 */

/** The account is private (the users read model, from the auth events). */
export const creatorIsPrivateSql = (author: string): string => `EXISTS (SELECT 1 FROM users pa WHERE pa.id = ${author} AND pa.is_private)`;

/** The viewer may see the author's content as far as privacy goes: a public account, the account itself or an approved follower. */
export const seenDespitePrivacySql = (viewer: string, author: string): string =>
  `NOT EXISTS (SELECT 1 FROM users pa WHERE pa.id = ${author} AND pa.is_private
      AND (${viewer}::uuid IS NULL OR (${viewer}::uuid <> ${author}
           AND NOT EXISTS (SELECT 1 FROM follows pf WHERE pf.follower_id = ${viewer}::uuid AND pf.following_id = ${author}))))`;
