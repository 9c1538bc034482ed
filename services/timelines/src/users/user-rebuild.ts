import { clipCodeUnits, type EventBus, idsAfter, isUuid, Outbox, type RebuildableReadModel, replayedPeople } from '@timeliner/platform';
import type { ReplayedPerson } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { publishSnapshots } from '../timelines/snapshot.js';
import { UNKNOWN_USER } from './user-directory.js';

/**
 * Replayed people written at once, as UserRegistered/UserUpdated write them (user-events.ts): each
 * person's name lock first (a timeline, collaborator or invitation being written with their name),
 * then one multi-row upsert that takes a person the copy lacks or holds at an older profile
 * version; for those whose shown name changed, the names stored with their timelines (each such
 * timeline publishes a snapshot), collaborations and pending invitations follow.
 */
export async function applyPeople(manager: EntityManager, people: readonly ReplayedPerson[]): Promise<void> {
  const rows = new Map<string, ReplayedPerson>();
  for (const person of people) if (isUuid(person.userId) && person.username !== '') rows.set(person.userId.toLowerCase(), person);
  if (rows.size === 0) return;
  const ids = [...rows.keys()].sort();
  const column = (f: (p: ReplayedPerson) => unknown) => ids.map((id) => f(rows.get(id)!));
  // lockPerson's lock, for the whole page, in id order.
  await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('timelines.person-name:' || id, 0)) FROM unnest($1::text[]) AS id ORDER BY id`, [ids]);
  const written = (await manager.query(
    `WITH written AS (
       INSERT INTO users AS u (id, username, display_name, email, avatar, profile_version)
       SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::bigint[]) ORDER BY 1
       ON CONFLICT (id) DO UPDATE SET username = EXCLUDED.username, display_name = EXCLUDED.display_name,
         email = CASE WHEN EXCLUDED.email <> '' THEN EXCLUDED.email ELSE u.email END, avatar = EXCLUDED.avatar,
         profile_version = EXCLUDED.profile_version, updated_at = now()
        WHERE u.profile_version < EXCLUDED.profile_version
       RETURNING u.id, coalesce(nullif(u.display_name, ''), nullif(u.username, ''), $7) AS name)
     SELECT id, name FROM written`,
    [
      ids,
      column((p) => clipCodeUnits(p.username, 30)),
      column((p) => clipCodeUnits(p.displayName, 100)),
      column((p) => clipCodeUnits(p.email.trim().toLowerCase(), 254)),
      column((p) => (p.avatar ? clipCodeUnits(p.avatar, 2048) : null)),
      column((p) => p.profileVersion.toString()),
      UNKNOWN_USER,
    ],
  )) as Array<{ id: string; name: string }>;
  if (written.length === 0) return;
  // renamePerson's, for the whole page at once.
  const names = [written.map((w) => w.id), written.map((w) => w.name)];
  const renamed = (await manager.query(
    `WITH renamed AS (
       UPDATE timelines t SET creator_name = n.name FROM unnest($1::uuid[], $2::varchar[]) AS n(id, name)
        WHERE t.creator_id = n.id AND t.creator_name <> n.name RETURNING t.id)
     SELECT id FROM renamed`,
    names,
  )) as Array<{ id: string }>;
  await publishSnapshots(manager, Outbox, renamed.map((r) => r.id), { requestId: 'read-model-rebuild' });
  await manager.query(`UPDATE collaborators c SET user_name = n.name FROM unnest($1::uuid[], $2::varchar[]) AS n(id, name) WHERE c.user_id = n.id AND c.user_name <> n.name`, names);
  await manager.query(
    `UPDATE invitations i SET inviter_name = n.name FROM unnest($1::uuid[], $2::varchar[]) AS n(id, name)
      WHERE i.inviter_user_id = n.id AND i.status = 'pending' AND i.inviter_name <> n.name`,
    names,
  );
}

/**
 * The timelines service's people (names shown with timelines and collaborators, e-mail addresses
 * invitations are matched with) rebuilt from the auth service's replay (`read-model rebuild
 * timelines --model people`), applied as the profile events are (applyPeople). A person the auth
 * service no longer has leaves the copy; what they made stays with the name it was stored with.
 */
export function peopleReadModel(bus: EventBus): RebuildableReadModel<ReplayedPerson> {
  return {
    name: 'people',
    ...replayedPeople(bus),
    apply: (manager, person) => applyPeople(manager, [person]),
    applyPage: applyPeople,
    localIds: (manager, afterId, limit) => idsAfter(manager, 'users', afterId, limit),
    async remove(manager, id) {
      await manager.query('DELETE FROM users WHERE id = $1', [id]);
    },
  };
}
