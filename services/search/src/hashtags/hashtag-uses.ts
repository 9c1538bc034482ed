import type { EntityManager } from 'typeorm';

/** Rows a DELETE ... RETURNING gave back (TypeORM answers such a query with [rows, count]). */
const deletedRows = <T>(result: unknown): T[] => (Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : (result as T[]));

export interface HashtagUses {
  sourceType: 'timeline' | 'post';
  sourceId: string;
  userId: string;
  /** Every tag the source uses now; an empty list removes its uses. */
  hashtags: string[];
  /** When a tag new to the source was first used there. */
  at: string;
}

/**
 * Makes a timeline's or post's hashtag uses what it uses now, and moves the tags' counts by what
 * changed. Counts move by increments on locked rows, so concurrent handlers never lose one; a tag
 * no longer used by anything is gone.
 */
export async function syncHashtagUses(manager: EntityManager, uses: HashtagUses): Promise<void> {
  const removed = deletedRows<{ hashtag: string }>(
    await manager.query(`DELETE FROM hashtag_uses WHERE source_type = $1 AND source_id = $2 AND NOT (hashtag = ANY($3::varchar[])) RETURNING hashtag`, [
      uses.sourceType,
      uses.sourceId,
      uses.hashtags,
    ]),
  );
  // unnest keeps the tags sorted, so concurrent handlers lock the same rows in the same order.
  const added = (await manager.query(
    `INSERT INTO hashtag_uses (source_type, source_id, hashtag, user_id, used_at)
     SELECT $1, $2, tag, $4, $5 FROM unnest($3::varchar[]) AS tag ORDER BY tag
     ON CONFLICT DO NOTHING RETURNING hashtag`,
    [uses.sourceType, uses.sourceId, uses.hashtags, uses.userId, uses.at],
  )) as Array<{ hashtag: string }>;
  await moveCounts(manager, added.map((r) => r.hashtag), removed.map((r) => r.hashtag));
}

/** Removes every hashtag use of a deleted or hidden source. */
export async function dropHashtagUses(manager: EntityManager, sourceType: HashtagUses['sourceType'], sourceId: string): Promise<void> {
  const removed = deletedRows<{ hashtag: string }>(await manager.query(`DELETE FROM hashtag_uses WHERE source_type = $1 AND source_id = $2 RETURNING hashtag`, [sourceType, sourceId]));
  await moveCounts(manager, [], removed.map((r) => r.hashtag));
}

async function moveCounts(manager: EntityManager, added: string[], removed: string[]): Promise<void> {
  if (added.length > 0) {
    await manager.query(
      `INSERT INTO hashtags (name, usage_count) SELECT tag, 1 FROM unnest($1::varchar[]) AS tag ORDER BY tag
       ON CONFLICT (name) DO UPDATE SET usage_count = hashtags.usage_count + 1`,
      [[...added].sort()],
    );
  }
  if (removed.length > 0) {
    await manager.query(`UPDATE hashtags SET usage_count = usage_count - 1 WHERE name = ANY($1::varchar[])`, [removed]);
    await manager.query(`DELETE FROM hashtags WHERE name = ANY($1::varchar[]) AND usage_count <= 0`, [removed]);
  }
}
