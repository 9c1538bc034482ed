import { clipCodePoints, type EventBus, idsAfter, isUuid, type RebuildableReadModel, requestRpc } from '@timeliner/platform';
import { AuthRpc, type ReplayedPerson } from '@timeliner/proto';

const REPLAY_TIMEOUT_MS = 30_000;

/**
 * Search's people rebuilt from the auth service's replay (`read-model rebuild search --model
 * people`). A replayed person is taken when search lacks them or holds an older profile version; a
 * profile change racing the replay either waits for the person (MissingReferenceError) or is already
 * in, and its version keeps the replay's older snapshot from rolling it back. Their timelines get
 * their username. Followers counts
 * stay with the social service's follow events (the next one brings the count). A person the auth
 * service no longer has leaves the people found.
 */
export function peopleReadModel(bus: EventBus): RebuildableReadModel<ReplayedPerson> {
  return {
    name: 'people',
    async fetchPage(afterId, limit) {
      const reply = await requestRpc(bus, AuthRpc.Replay, { afterId, limit }, { timeoutMs: REPLAY_TIMEOUT_MS });
      return { rows: reply.people, total: Number(reply.total) };
    },
    async fetchIds(ids) {
      return (await requestRpc(bus, AuthRpc.Replay, { userIds: ids }, { timeoutMs: REPLAY_TIMEOUT_MS })).people;
    },
    idOf: (person) => person.userId.toLowerCase(),
    async apply(manager, person) {
      if (!isUuid(person.userId) || person.username === '') return;
      const id = person.userId.toLowerCase();
      const written = (await manager.query(
        `INSERT INTO users (id, username, display_name, bio, avatar, is_private, profile_version) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET username = EXCLUDED.username, display_name = EXCLUDED.display_name, bio = EXCLUDED.bio, avatar = EXCLUDED.avatar,
           is_private = EXCLUDED.is_private, profile_version = EXCLUDED.profile_version, updated_at = now()
         WHERE users.profile_version < EXCLUDED.profile_version
         RETURNING id`,
        [id, clipCodePoints(person.username, 30), clipCodePoints(person.displayName, 100), clipCodePoints(person.bio ?? '', 500), person.avatar ? clipCodePoints(person.avatar, 2048) : null, person.isPrivate, person.profileVersion.toString()],
      )) as unknown[];
      if (written.length > 0) {
        await manager.query(`UPDATE timelines SET creator_username = $2 WHERE creator_id = $1 AND creator_username <> $2`, [id, clipCodePoints(person.username, 30)]);
      }
    },
    localIds: (manager, afterId, limit) => idsAfter(manager, 'users', afterId, limit),
    async remove(manager, id) {
      await manager.query('DELETE FROM users WHERE id = $1', [id]);
    },
  };
}
