import { timestampDate } from '@bufbuild/protobuf/wkt';
import { isUuid, on, Outbox } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { refreshActivity } from './activity.js';
import { publishSnapshot, snapshotContext } from './snapshot.js';

/**
 * Comment counts and times, from the social service's events (it owns the comments). An event
 * carries the count after the change with its version: the count is set only from a newer version
 * than the one held, so a redelivered, reordered or replayed count never puts an older one back.
 * Events published before counts were versioned (count_version 0) count +1/-1 as they did, on a
 * count nothing versioned has set yet; the inbox makes each of those count once.
 */
export const commentEventHandlers = [
  on(SocialEvents.TimelineCommentAdded, async (comment, meta, manager) => {
    if (!isUuid(comment.timelineId)) return;
    const at = comment.createdAt ? timestampDate(comment.createdAt) : new Date(meta.occurredAt);
    // A comment on a timeline deleted meanwhile changes nothing.
    const changed = await setCommentCount(manager, comment.timelineId, comment.commentsCount, comment.countVersion, +1, at);
    if (!changed) return;
    await refreshActivity(manager, comment.timelineId);
    await publishSnapshot(manager, Outbox, comment.timelineId, snapshotContext(meta));
  }),
  on(SocialEvents.TimelineCommentDeleted, async (comment, meta, manager) => {
    if (!isUuid(comment.timelineId)) return;
    const changed = await setCommentCount(manager, comment.timelineId, comment.commentsCount, comment.countVersion, -1, null);
    if (!changed) return;
    await refreshActivity(manager, comment.timelineId);
    await publishSnapshot(manager, Outbox, comment.timelineId, snapshotContext(meta));
  }),
];

const INT32_MAX = 2_147_483_647;

/**
 * Sets a timeline's comment count from a versioned count (only over an older version), or moves
 * an unversioned one by `delta`; a later comment time moves last_comment_at. True when the
 * timeline changed.
 */
export async function setCommentCount(manager: EntityManager, timelineId: string, count: bigint, version: bigint, delta: 1 | -1, at: Date | null): Promise<boolean> {
  const commentAt = at && !Number.isNaN(at.getTime()) ? at : null;
  if (version > 0n) {
    const n = Number(count < 0n ? 0n : count > BigInt(INT32_MAX) ? BigInt(INT32_MAX) : count);
    // Wrapped in a CTE so the driver answers with the returned rows, as for a SELECT.
    const changed: unknown[] = await manager.query(
      `WITH changed AS (
         UPDATE timelines
            SET comments_count = CASE WHEN comments_version < $3 THEN $2 ELSE comments_count END,
                comments_version = greatest(comments_version, $3),
                last_comment_at = CASE WHEN $4::timestamptz IS NOT NULL THEN greatest(last_comment_at, $4::timestamptz) ELSE last_comment_at END
          WHERE id = $1 AND (comments_version < $3 OR ($4::timestamptz IS NOT NULL AND (last_comment_at IS NULL OR last_comment_at < $4::timestamptz)))
          RETURNING id)
       SELECT id FROM changed`,
      [timelineId.toLowerCase(), n, version.toString(), commentAt],
    );
    return changed.length > 0;
  }
  const changed: unknown[] = await manager.query(
    `WITH changed AS (
       UPDATE timelines
          SET comments_count = greatest(comments_count + $2::int, 0),
              last_comment_at = CASE WHEN $3::timestamptz IS NOT NULL THEN greatest(last_comment_at, $3::timestamptz) ELSE last_comment_at END
        WHERE id = $1 AND comments_version = 0
        RETURNING id)
     SELECT id FROM changed`,
    [timelineId.toLowerCase(), delta, commentAt],
  );
  return changed.length > 0;
}
