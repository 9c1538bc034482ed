import { clipCodeUnits, type EventBus, idsAfter, isUuid, type RebuildableReadModel, replayedPeople } from '@timeliner/platform';
import type { ReplayedPerson } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { forgetAccount } from './user-events.js';

/**
 * Replayed people written at once, as UserRegistered/UserUpdated write them (user-events.ts): one
 * multi-row upsert that takes a person the copy lacks or holds at an older profile version.
 * Usernames lower-cased (mentions are matched on them), e-mail addresses too (invitations).
 */
export async function applyPeople(manager: EntityManager, people: readonly ReplayedPerson[]): Promise<void> {
  const rows = new Map<string, ReplayedPerson>();
  for (const person of people) if (isUuid(person.userId) && person.username !== '') rows.set(person.userId.toLowerCase(), person);
  if (rows.size === 0) return;
  const ids = [...rows.keys()].sort();
  const column = (f: (p: ReplayedPerson) => unknown) => ids.map((id) => f(rows.get(id)!));
  await manager.query(
    `INSERT INTO users AS u (id, username, display_name, avatar, email, profile_version, is_private)
     SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::bigint[], $7::boolean[]) ORDER BY 1
     ON CONFLICT (id) DO UPDATE SET username = EXCLUDED.username, display_name = EXCLUDED.display_name, avatar = EXCLUDED.avatar,
       email = coalesce(EXCLUDED.email, u.email), profile_version = EXCLUDED.profile_version, is_private = EXCLUDED.is_private, updated_at = now()
      WHERE u.profile_version < EXCLUDED.profile_version`,
    [
      ids,
      column((p) => clipCodeUnits(p.username.toLowerCase(), 30)),
      column((p) => clipCodeUnits(p.displayName, 100)),
      column((p) => (p.avatar ? clipCodeUnits(p.avatar, 2048) : null)),
      column((p) => (p.email ? clipCodeUnits(p.email.trim().toLowerCase(), 320) : null)),
      column((p) => p.profileVersion.toString()),
      column((p) => p.isPrivate),
    ],
  );
}

/**
 * The notifications service's people (names and avatars shown, usernames for mentions, e-mail
 * addresses for invitations) rebuilt from the auth service's replay (`read-model rebuild
 * notifications --model people`), applied as the profile events are (applyPeople). A person the
 * auth service no longer has goes, with what an account deletion takes (forgetAccount).
 */
export function peopleReadModel(bus: EventBus): RebuildableReadModel<ReplayedPerson> {
  return {
    name: 'people',
    ...replayedPeople(bus),
    apply: (manager, person) => applyPeople(manager, [person]),
    applyPage: applyPeople,
    localIds: (manager, afterId, limit) => idsAfter(manager, 'users', afterId, limit),
    async remove(manager, id) {
      await forgetAccount(manager, id);
      await manager.query('DELETE FROM users WHERE id = $1', [id]);
    },
  };
}
