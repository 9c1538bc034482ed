import type { EntityManager } from 'typeorm';

/** A timeline's comment count as the comment events carry it: the count and its version. */
export interface TimelineCommentCount {
  commentsCount: bigint;
  countVersion: bigint;
}

/**
 * Recounts a timeline's shown comments (held ones apart) after one was added, approved or deleted
 * in this transaction, and gives the count a new version (count_version_seq, as the other
 * counters). The counter row is locked before counting, so two comments at once are counted in
 * turn: the later version always carries the larger truth.
 */
export async function recountTimelineComments(manager: EntityManager, timelineId: string): Promise<TimelineCommentCount> {
  await manager.query('INSERT INTO timeline_reactions (timeline_id) VALUES ($1) ON CONFLICT (timeline_id) DO NOTHING', [timelineId]);
  await manager.query('SELECT 1 FROM timeline_reactions WHERE timeline_id = $1 FOR UPDATE', [timelineId]);
  const [counted] = (await manager.query(
    `WITH c AS (UPDATE timeline_reactions
                   SET comments_count = (SELECT count(*) FROM timeline_comments WHERE timeline_id = $1 AND NOT held),
                       comments_version = nextval('count_version_seq')
                 WHERE timeline_id = $1
             RETURNING comments_count::text AS count, comments_version::text AS version)
     SELECT * FROM c`,
    [timelineId],
  )) as Array<{ count: string; version: string }>;
  return { commentsCount: BigInt(counted!.count), countVersion: BigInt(counted!.version) };
}
