import { timestampDate } from '@bufbuild/protobuf/wkt';
import { type EventBus, isUuid, Outbox, type RebuildableReadModel, requestRpc } from '@timeliner/platform';
import { SocialRpc, type TimelineLikes } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { refreshActivity } from './activity.js';
import { setCommentCount } from './comment-events.js';
import { publishSnapshot } from './snapshot.js';

const REPLAY_TIMEOUT_MS = 30_000;

/**
 * The timelines' like counts (likes_count, likes_version, last_like_at) rebuilt from the social
 * service's replay (`read-model rebuild timelines --model likes`), applied as ReactionChanged is
 * (like-events.ts): the count only from a newer count_version, the last like only ever later; a
 * timeline whose count changed gets its activity score and a snapshot (the feed and search copies
 * follow). A timeline the social service has no count for (its likes all gone with a deletion)
 * goes to 0 likes. The comment counts of the same replay are `commentsReadModel`'s.
 */
export function likesReadModel(bus: EventBus): RebuildableReadModel<TimelineLikes> {
  return {
    name: 'likes',
    async fetchPage(afterId, limit) {
      const reply = await requestRpc(bus, SocialRpc.ReplayTimelineLikes, { afterId, limit }, { timeoutMs: REPLAY_TIMEOUT_MS });
      return { rows: reply.timelines, total: Number(reply.total) };
    },
    async fetchIds(ids) {
      return (await requestRpc(bus, SocialRpc.ReplayTimelineLikes, { timelineIds: ids }, { timeoutMs: REPLAY_TIMEOUT_MS })).timelines;
    },
    idOf: (likes) => likes.timelineId.toLowerCase(),
    async apply(manager, likes) {
      if (!isUuid(likes.timelineId) || likes.countVersion <= 0n) return;
      const timelineId = likes.timelineId.toLowerCase();
      const at = likes.lastLikeAt ? timestampDate(likes.lastLikeAt) : null;
      const count = Math.min(Math.max(0, Number(likes.likesCount)), 2_147_483_647);
      // Wrapped in a CTE so the driver answers with the returned rows, as for a SELECT.
      const changed: unknown[] = await manager.query(
        `WITH changed AS (
           UPDATE timelines
              SET likes_count = CASE WHEN likes_version < $3 THEN $2 ELSE likes_count END,
                  likes_version = greatest(likes_version, $3),
                  last_like_at = CASE WHEN $4::timestamptz IS NOT NULL THEN greatest(last_like_at, $4::timestamptz) ELSE last_like_at END
            WHERE id = $1 AND (likes_version < $3 OR ($4::timestamptz IS NOT NULL AND (last_like_at IS NULL OR last_like_at < $4::timestamptz)))
            RETURNING id)
         SELECT id FROM changed`,
        [timelineId, count, likes.countVersion.toString(), at],
      );
      if (changed.length > 0) await announce(manager, timelineId);
    },
    async localIds(manager, afterId, limit) {
      const rows = (await manager.query(
        `SELECT id FROM timelines WHERE id > $1 AND (likes_version > 0 OR likes_count > 0) ORDER BY id LIMIT $2`,
        [afterId || '00000000-0000-0000-0000-000000000000', limit],
      )) as Array<{ id: string }>;
      return rows.map((row) => row.id);
    },
    async remove(manager, id) {
      const [, changed] = (await manager.query('UPDATE timelines SET likes_count = 0 WHERE id = $1 AND likes_count <> 0', [id])) as [unknown, number];
      if (changed > 0) await announce(manager, id);
    },
  };
}

/**
 * The timelines' comment counts (comments_count, comments_version) rebuilt from the same replay of
 * the social service (`read-model rebuild timelines --model comments`), applied as
 * TimelineCommentAdded/Deleted are (comment-events.ts): the count only from a newer version. A
 * timeline the social service counts no comments for goes to 0 comments.
 */
export function commentsReadModel(bus: EventBus): RebuildableReadModel<TimelineLikes> {
  const replay = likesReadModel(bus);
  return {
    name: 'comments',
    fetchPage: replay.fetchPage,
    fetchIds: replay.fetchIds,
    idOf: replay.idOf,
    async apply(manager, counts) {
      if (!isUuid(counts.timelineId)) return;
      const timelineId = counts.timelineId.toLowerCase();
      if (counts.commentsVersion <= 0n) {
        // Counted for likes only: no comment counted there, unless one came since (a version).
        const [, changed] = (await manager.query('UPDATE timelines SET comments_count = 0 WHERE id = $1 AND comments_count <> 0 AND comments_version = 0', [timelineId])) as [unknown, number];
        if (changed > 0) await announce(manager, timelineId);
        return;
      }
      if (await setCommentCount(manager, timelineId, counts.commentsCount, counts.commentsVersion, 1, null)) await announce(manager, timelineId);
    },
    async localIds(manager, afterId, limit) {
      const rows = (await manager.query(
        `SELECT id FROM timelines WHERE id > $1 AND (comments_version > 0 OR comments_count > 0) ORDER BY id LIMIT $2`,
        [afterId || '00000000-0000-0000-0000-000000000000', limit],
      )) as Array<{ id: string }>;
      return rows.map((row) => row.id);
    },
    async remove(manager, id) {
      // The social service counts nothing there (its counter went with the comments).
      const [, changed] = (await manager.query('UPDATE timelines SET comments_count = 0 WHERE id = $1 AND comments_count <> 0', [id])) as [unknown, number];
      if (changed > 0) await announce(manager, id);
    },
  };
}

async function announce(manager: EntityManager, timelineId: string): Promise<void> {
  await refreshActivity(manager, timelineId);
  await publishSnapshot(manager, Outbox, timelineId, { requestId: 'read-model-rebuild' });
}
