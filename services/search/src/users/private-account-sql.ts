/**
 * Private accounts in search (spec 001 `users.isPrivate`, issue 28): a private account's
 * timelines, whatever their own visibility, are seen only by the account and its approved
 * followers, which this service does not keep; so search, discovery and spoken words leave them
 * out for everyone but the account itself (its followers find them on its profile). The profile
 * header stays findable in people results. `viewer` is the SQL of the searcher's id (NULL when
 * signed out), `t` the timelines alias.
 */

/** The creator's account is not private: what lists shown to everyone (discovery) may hold. */
export const publicCreatorSql = (t = 't'): string => `NOT EXISTS (SELECT 1 FROM users pa WHERE pa.id = ${t}.creator_id AND pa.is_private)`;

/** The creator's account is not private, or the viewer is that account. */
export const seenDespitePrivacySql = (viewer: string, t = 't'): string =>
  `NOT EXISTS (SELECT 1 FROM users pa WHERE pa.id = ${t}.creator_id AND pa.is_private AND pa.id IS DISTINCT FROM ${viewer})`;

/** The person (a column of their id) is not a private account. */
export const notPrivateUserSql = (user: string): string => `NOT EXISTS (SELECT 1 FROM users pa WHERE pa.id = ${user} AND pa.is_private)`;

/** A hashtag's uses by accounts that are not private: the count shown, and zero hides the tag (`h` the hashtags alias). */
export const publicHashtagUsesSql = (h = 'h'): string =>
  `(SELECT count(*)::int FROM hashtag_uses hu WHERE hu.hashtag = ${h}.name AND ${notPrivateUserSql('hu.user_id')})`;
