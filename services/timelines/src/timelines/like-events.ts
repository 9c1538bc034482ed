import { timestampDate } from '@bufbuild/protobuf/wkt';
import { idOf, on, Outbox } from '@timeliner/platform';
import { Reaction, SocialEvents, TargetType } from '@timeliner/proto';
import { refreshActivity } from './activity.js';
import { publishSnapshot, snapshotContext } from './snapshot.js';

/**
 * Like counts and times of timelines, from the social service's events (it owns the likes). Each
 * event carries the absolute count and a version that grows with every change, so the count is
 * set only from a newer version: a redelivered or overtaken event never makes it drift.
 */
export const likeEventHandlers = [
  on(SocialEvents.ReactionChanged, async (reaction, meta, manager) => {
    if (reaction.targetType !== TargetType.TIMELINE) return;
    if (reaction.reaction !== Reaction.LIKE) return;
    const timelineId = idOf(reaction.targetId);
    if (!timelineId) return;
    const at = reaction.at ? timestampDate(reaction.at) : new Date(meta.occurredAt);
    const count = Math.max(0, Number(reaction.count));
    // Only the newest like counts as activity; taking a like back leaves last_like_at as it was.
    // Wrapped in a CTE so the driver answers with the returned rows, as for a SELECT.
    const changed: unknown[] = await manager.query(
      `WITH changed AS (
         UPDATE timelines
            SET likes_count = CASE WHEN likes_version < $3 THEN $2 ELSE likes_count END,
                likes_version = greatest(likes_version, $3),
                last_like_at = CASE WHEN $4 THEN greatest(last_like_at, $5::timestamptz) ELSE last_like_at END
          WHERE id = $1 AND (likes_version < $3 OR ($4 AND (last_like_at IS NULL OR last_like_at < $5::timestamptz)))
          RETURNING id)
       SELECT id FROM changed`,
      [timelineId, count, reaction.countVersion.toString(), reaction.active, at],
    );
    // A timeline deleted meanwhile, or an old event that moves neither the count nor the last
    // like, changes nothing (and writes no snapshot).
    if (changed.length > 0) {
      await refreshActivity(manager, timelineId);
      await publishSnapshot(manager, Outbox, timelineId, snapshotContext(meta));
    }
  }),
];
