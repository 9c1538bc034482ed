import type { EntityManager } from 'typeorm';
import { type CommentRules, mustHold, OPEN_COMMENTS, refusalOf, type WhoMayComment } from './comment-rules.js';

/** The items whose moderators set comment controls: a timeline (its videos too) or a post. */
export type ControlledItem = { type: 'timeline' | 'post'; id: string };

/** The item's rules, or the defaults when its moderators never changed them. */
export async function commentRulesOf(manager: EntityManager, item: ControlledItem): Promise<CommentRules> {
  const [row] = (await manager.query(
    `SELECT who_may_comment AS "whoMayComment", hold_all AS "holdAll", held_words AS "heldWords", hold_new_accounts_days AS "holdNewAccountsDays"
       FROM comment_settings WHERE target_type = $1 AND target_id = $2`,
    [item.type, item.id],
  )) as Array<CommentRules & { whoMayComment: WhoMayComment }>;
  return row ?? OPEN_COMMENTS;
}

/** Whether `userId` follows `ownerId`, and when `userId` registered (null when not known here). */
export async function commenterFacts(manager: EntityManager, userId: string, ownerId: string): Promise<{ follower: boolean; registeredAt: Date | null }> {
  const [row] = (await manager.query(
    `SELECT EXISTS (SELECT 1 FROM follows WHERE follower_id = $1 AND following_id = $2) AS follower,
            (SELECT registered_at FROM users WHERE id = $1) AS "registeredAt"`,
    [userId, ownerId === '' ? null : ownerId],
  )) as Array<{ follower: boolean; registeredAt: Date | null }>;
  return { follower: row?.follower ?? false, registeredAt: row?.registeredAt ?? null };
}

export type Admission = { refused: string } | { refused: null; held: boolean };

/**
 * Whether a comment by `userId` may be written on the item, and whether it waits for approval:
 * `moderator` says whether the writer moderates the item (owner or editor of the timeline, author
 * of the post), `ownerId` whose followers "followers" means.
 */
export async function admitComment(manager: EntityManager, item: ControlledItem, writer: { userId: string; moderator: boolean; ownerId: string }, content: string): Promise<Admission> {
  const rules = await commentRulesOf(manager, item);
  if (writer.moderator) return { refused: null, held: false };
  const facts = await commenterFacts(manager, writer.userId, writer.ownerId);
  const refused = refusalOf(rules, { moderator: false, follower: facts.follower });
  if (refused) return { refused };
  return { refused: null, held: mustHold(rules, { moderator: false, registeredAt: facts.registeredAt }, content) };
}

/**
 * The SQL condition under which a comment (table alias `alias`) is shown to a reader: an approved
 * one to everyone; a held one only to its author and the item's moderators. `viewer` and
 * `moderator` are the placeholders of the reader's id (null when signed out) and whether they
 * moderate the item.
 */
export const shownTo = (alias: string, viewer: string, moderator: string): string =>
  `(NOT ${alias}.held OR ${moderator}::boolean OR ${alias}.user_id = ${viewer}::uuid)`;
