import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { EventWriter, SignedInCaller } from '@timeliner/platform';
import { SocialEvents, TargetType } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { ControlledItem } from './comment-gate.js';

/** How many comments wait on the item (a timeline's: on it and on its videos). */
export async function heldCountOf(manager: EntityManager, item: ControlledItem): Promise<number> {
  const [row] = (await manager.query(
    item.type === 'post'
      ? 'SELECT count(*)::int AS n FROM post_comments WHERE post_id = $1 AND held'
      : `SELECT (SELECT count(*) FROM timeline_comments WHERE timeline_id = $1 AND held) + (SELECT count(*) FROM video_comments WHERE timeline_id = $1 AND held) AS n`,
    [item.id],
  )) as Array<{ n: number | string }>;
  return Number(row?.n ?? 0);
}

/**
 * A comment was held on the item: the owner is told through CommentHeld, which carries the
 * number now waiting, so the notifications group them into one entry per item.
 */
export async function heldCommentWaiting(manager: EntityManager, events: EventWriter, item: ControlledItem, ownerId: string, caller: SignedInCaller, commentId: string, timelineTitle?: string): Promise<void> {
  await events.add(manager, SocialEvents.CommentHeld, {
    commentId,
    targetType: item.type === 'post' ? TargetType.POST : TargetType.TIMELINE,
    targetId: item.id,
    ownerId,
    userId: caller.userId,
    heldCount: BigInt(await heldCountOf(manager, item)),
    at: timestampFromDate(new Date()),
    ...(timelineTitle !== undefined ? { timelineTitle } : {}),
  }, { actorUserId: caller.userId, requestId: caller.requestId });
}
