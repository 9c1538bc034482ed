import { clipCodeUnits, type EventBus, idsAfter, isUuid, type RebuildableReadModel, replayedPeople } from '@timeliner/platform';
import type { ReplayedPerson } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { deletedUserDigest } from './deleted-users.js';

/**
 * Replayed people written at once, as UserRegistered/UserUpdated write them (user-events.ts): a
 * person is taken when the copy lacks them or holds an older profile version (one multi-row
 * upsert, the version in its condition), never for a deleted account (deleted_users, by the digest of the id); the names
 * stored with their comments follow those whose name changed.
 */
export async function applyPeople(manager: EntityManager, people: readonly ReplayedPerson[]): Promise<void> {
  const rows = new Map<string, ReplayedPerson>();
  for (const person of people) if (isUuid(person.userId) && person.username !== '') rows.set(person.userId.toLowerCase(), person);
  if (rows.size === 0) return;
  const ids = [...rows.keys()].sort();
  const column = (f: (p: ReplayedPerson) => unknown) => ids.map((id) => f(rows.get(id)!));
  const written = (await manager.query(
    `WITH incoming AS (
       SELECT x.* FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[], $5::boolean[], $6::bigint[])
                       AS x(id, username, display_name, avatar, is_private, profile_version)
        WHERE NOT EXISTS (SELECT 1 FROM deleted_users d WHERE d.digest = ${deletedUserDigest('x.id')})
     ), written AS (
       INSERT INTO users AS u (id, username, display_name, avatar, is_private, profile_version)
       SELECT id, username, display_name, avatar, is_private, profile_version FROM incoming ORDER BY id
       ON CONFLICT (id) DO UPDATE SET username = EXCLUDED.username, display_name = EXCLUDED.display_name, avatar = EXCLUDED.avatar,
         is_private = EXCLUDED.is_private, profile_version = EXCLUDED.profile_version, updated_at = now()
        WHERE u.profile_version < EXCLUDED.profile_version
       RETURNING u.id, left(coalesce(nullif(u.display_name, ''), nullif(u.username, ''), 'Unknown User'), 100) AS name)
     SELECT id, name FROM written`,
    [
      ids,
      column((p) => clipCodeUnits(p.username, 30)),
      column((p) => clipCodeUnits(p.displayName, 100)),
      column((p) => (p.avatar ? clipCodeUnits(p.avatar, 2048) : null)),
      column((p) => p.isPrivate),
      column((p) => p.profileVersion.toString()),
    ],
  )) as Array<{ id: string; name: string }>;
  if (written.length === 0) return;
  // The names stored with what they wrote (renameAuthor's, for the whole page at once).
  const names = [written.map((w) => w.id), written.map((w) => w.name)];
  for (const table of ['timeline_comments', 'video_comments', 'post_comments']) {
    await manager.query(
      `UPDATE ${table} c SET user_name = n.name FROM unnest($1::uuid[], $2::varchar[]) AS n(id, name) WHERE c.user_id = n.id AND c.user_name <> n.name`,
      names,
    );
  }
}

/**
 * Social's people rebuilt from the auth service's replay (`read-model rebuild social --model
 * people`): applied as the profile events are (applyPeople). A person the auth service no longer
 * has goes as an account deletion does: `forget` is follows' forgetAccount (their follows, with a
 * FollowChanged for each person whose counts change, their activity, the tombstone), handed in by
 * the service's wiring so that people and follows do not import each other.
 */
export function peopleReadModel(bus: EventBus, forget: (manager: EntityManager, userId: string) => Promise<void>): RebuildableReadModel<ReplayedPerson> {
  return {
    name: 'people',
    ...replayedPeople(bus),
    apply: (manager, person) => applyPeople(manager, [person]),
    applyPage: applyPeople,
    localIds: (manager, afterId, limit) => idsAfter(manager, 'users', afterId, limit),
    remove: forget,
  };
}
