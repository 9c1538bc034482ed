import { copyHiddenItemSql, copySuspendedSql, isUuid } from '@timeliner/platform';
import type { EntityManager } from 'typeorm';
import type { NotificationKind, TargetType } from './notification-kinds.js';

/**
 * Who may be told about whose content (issue 28), from this service's copies: the moderation
 * desk's decisions (platform moderation-copy), private accounts (users.is_private), their
 * followers (the FollowChanged states in reaction_states, `follow:<followee>`) and the timelines'
 * teams. A notification is about its owner's content (`owner_id`): the post's author, the
 * timeline's owner.
 */

/** Kinds about someone's content, which a private account's outsiders are not told of. */
const ABOUT_CONTENT: ReadonlySet<NotificationKind> = new Set(['like', 'comment', 'reply', 'mention', 'comments_held', 'comment_approved']);

/** SQL true when `recipient` may see what the private account `owner` keeps to its followers: it is them, a follower, or on the timeline's team. */
export const mayFollowSql = (owner: string, recipient: string, timelineId: string): string =>
  `(${recipient} = ${owner}
    OR NOT EXISTS (SELECT 1 FROM users pu WHERE pu.id = ${owner} AND pu.is_private)
    OR EXISTS (SELECT 1 FROM reaction_states rs WHERE rs.target_key = 'follow:' || ${owner}::text AND rs.user_id = ${recipient} AND rs.active)
    OR EXISTS (SELECT 1 FROM timeline_members tm WHERE tm.timeline_id = ${timelineId} AND tm.user_id = ${recipient}))`;

/** The owner of the content an activity is about: the one it names, or its timeline's owner. */
export async function ownerOf(manager: EntityManager, ownerId: string | null | undefined, timelineId: string | null): Promise<string | null> {
  if (ownerId) return ownerId;
  if (!timelineId) return null;
  const [row] = (await manager.query('SELECT owner_id FROM timelines WHERE id = $1', [timelineId])) as Array<{ owner_id: string }>;
  return row?.owner_id ?? null;
}

/**
 * Whether the recipient is not to be told: the actor is suspended; or, for anyone but the
 * content's owner, the moderators hid the thing (or its timeline) or suspended its owner; or its
 * owner's account is private and the recipient is not one of its followers (nor on the
 * timeline's team).
 */
export async function outOfReach(
  manager: EntityManager,
  input: { recipientId: string; kind: NotificationKind; actorId: string | null; ownerId: string | null; target: { type: TargetType; id: string; timelineId: string | null } },
): Promise<boolean> {
  if (input.kind === 'moderation') return false;
  const [row] = (await manager.query(
    `SELECT ($1::uuid IS NOT NULL AND ${copySuspendedSql('$1::uuid')})
         OR ($2::uuid IS DISTINCT FROM $3::uuid AND (
              ${copyHiddenItemSql('$4::text', '$5::uuid')}
           OR ($6::uuid IS NOT NULL AND ${copyHiddenItemSql(`'timeline'`, '$6::uuid')})
           OR ($2::uuid IS NOT NULL AND ${copySuspendedSql('$2::uuid')})
           OR ($2::uuid IS NOT NULL AND $7::boolean AND NOT ${mayFollowSql('$2::uuid', '$3::uuid', '$6::uuid')}))) AS out`,
    [input.actorId, input.ownerId, input.recipientId, input.target.type, isUuid(input.target.id) ? input.target.id : null, input.target.timelineId, ABOUT_CONTENT.has(input.kind)],
  )) as Array<{ out: boolean }>;
  return row?.out ?? false;
}

/**
 * Where clauses (over `notifications`) of what a person may no longer be told, for
 * Notifier.dropWhere: about a private account's content, for those who are not its followers
 * (nor on the timeline's team); about a thing the moderators hid, for all but its owner.
 */
export const outsidersOfSql = (ownerParam: string): string => `owner_id = ${ownerParam} AND NOT ${mayFollowSql(ownerParam, 'recipient_id', 'timeline_id')}`;
