import type { EntityManager } from 'typeorm';

/**
 * Serializes what changes one timeline's feed row: snapshots, and its deletion (which arrives on
 * another subject, so possibly at the same moment). Without it a snapshot could check
 * deleted_timelines before a concurrent deletion commits and insert the row after it. An add to a
 * collection takes it too, before the collection's rows (the order a deletion takes them in).
 */
export async function lockFeedTimeline(manager: EntityManager, timelineId: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`feed_timeline:${timelineId}`]);
}
