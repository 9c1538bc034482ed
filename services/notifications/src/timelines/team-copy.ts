import type { EntityManager } from 'typeorm';

/**
 * The copy of the timelines' teams (timeline_members), versioned by the timelines service's
 * members_version: each member row and each removal (timeline_member_removals) keeps the version
 * of the change that made it, and a change applies only over an older version of the same person
 * on the same team. Changes from before versions were kept (version 0) apply as they come.
 */

/**
 * Serializes the changes of one team: additions and removals arrive on different subjects, so at
 * the same moment on two consumers; each then sees what the other committed.
 */
async function lockTeam(manager: EntityManager, timelineId: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`notifications_team:${timelineId}`]);
}

/** Makes a person a member at `version`; false when a newer change of theirs is already here. */
export async function joinTeam(manager: EntityManager, timelineId: string, userId: string, version: bigint): Promise<boolean> {
  await lockTeam(manager, timelineId);
  if (version > 0n) {
    const newer: unknown[] = await manager.query('SELECT 1 FROM timeline_member_removals WHERE timeline_id = $1 AND user_id = $2 AND version > $3', [timelineId, userId, version.toString()]);
    if (newer.length > 0) return false;
  }
  const changed = (await manager.query(
    `INSERT INTO timeline_members (timeline_id, user_id, version) VALUES ($1, $2, $3)
     ON CONFLICT (timeline_id, user_id) DO UPDATE SET version = EXCLUDED.version WHERE timeline_members.version < EXCLUDED.version
     RETURNING user_id`,
    [timelineId, userId, version.toString()],
  )) as unknown[];
  await manager.query('DELETE FROM timeline_member_removals WHERE timeline_id = $1 AND user_id = $2 AND version <= $3', [timelineId, userId, version.toString()]);
  return changed.length > 0 || version === 0n;
}

/** Takes a person off a team at `version`; false when a newer change of theirs is already here. */
export async function leaveTeam(manager: EntityManager, timelineId: string, userId: string, version: bigint): Promise<boolean> {
  await lockTeam(manager, timelineId);
  const [, removed] = (await manager.query(
    version > 0n
      ? 'DELETE FROM timeline_members WHERE timeline_id = $1 AND user_id = $2 AND version < $3'
      : 'DELETE FROM timeline_members WHERE timeline_id = $1 AND user_id = $2 AND $3::bigint = 0',
    [timelineId, userId, version.toString()],
  )) as [unknown, number];
  if (version === 0n) return removed > 0;
  const stillThere: unknown[] = await manager.query('SELECT 1 FROM timeline_members WHERE timeline_id = $1 AND user_id = $2', [timelineId, userId]);
  if (stillThere.length > 0) return false;
  await manager.query(
    `INSERT INTO timeline_member_removals (timeline_id, user_id, version) VALUES ($1, $2, $3)
     ON CONFLICT (timeline_id, user_id) DO UPDATE SET version = greatest(timeline_member_removals.version, EXCLUDED.version)`,
    [timelineId, userId, version.toString()],
  );
  return true;
}

/**
 * A team as the timelines service replayed it (its members at `version`): those listed join, the
 * members here not listed whose last change is not newer leave. Returns who left, for the
 * notifications they may no longer keep.
 */
export async function replaceTeam(manager: EntityManager, timelineId: string, userIds: readonly string[], version: bigint): Promise<string[]> {
  await lockTeam(manager, timelineId);
  for (const userId of userIds) await joinTeam(manager, timelineId, userId, version);
  const listed = [...userIds];
  const [gone] = (await manager.query(
    `DELETE FROM timeline_members WHERE timeline_id = $1 AND NOT (user_id = ANY($2::uuid[])) AND version <= $3 RETURNING user_id AS "userId"`,
    [timelineId, listed, version.toString()],
  )) as [Array<{ userId: string }>, number];
  for (const { userId } of gone) {
    await manager.query(
      `INSERT INTO timeline_member_removals (timeline_id, user_id, version) VALUES ($1, $2, $3)
       ON CONFLICT (timeline_id, user_id) DO UPDATE SET version = greatest(timeline_member_removals.version, EXCLUDED.version)`,
      [timelineId, userId, version.toString()],
    );
  }
  return gone.map((row) => row.userId);
}
