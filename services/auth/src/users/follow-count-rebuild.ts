import { type EventBus, isUuid, type RebuildableReadModel, requestRpc } from '@timeliner/platform';
import { type FollowCounts, SocialRpc } from '@timeliner/proto';
import { ProfileCountsRepository } from '../counts/profile-counts.repository.js';

const REPLAY_TIMEOUT_MS = 30_000;
const counts = new ProfileCountsRepository();
const clamp = (n: bigint) => Math.max(0, Math.min(Number(n), 2_147_483_647));

/**
 * The profiles' follower and following counts (users.followers_count, following_count and their
 * versions) rebuilt from the social service's replay (`read-model rebuild auth --model follows`),
 * applied as FollowChanged is (follow-count-events.ts): each count only from a newer version, so a
 * follow racing the replay is never rolled back. A person the social service counts nothing for
 * goes to 0 and 0.
 */
export function followCountsReadModel(bus: EventBus): RebuildableReadModel<FollowCounts> {
  return {
    name: 'follows',
    async fetchPage(afterId, limit) {
      const reply = await requestRpc(bus, SocialRpc.ReplayFollowCounts, { afterId, limit }, { timeoutMs: REPLAY_TIMEOUT_MS });
      return { rows: reply.people, total: Number(reply.total) };
    },
    async fetchIds(ids) {
      return (await requestRpc(bus, SocialRpc.ReplayFollowCounts, { userIds: ids }, { timeoutMs: REPLAY_TIMEOUT_MS })).people;
    },
    idOf: (person) => person.userId.toLowerCase(),
    async apply(manager, person) {
      if (!isUuid(person.userId)) return;
      const id = person.userId.toLowerCase();
      if (person.followersVersion > 0n) await counts.setFollowCount(manager, 'followers', id, clamp(person.followersCount), person.followersVersion);
      if (person.followingVersion > 0n) await counts.setFollowCount(manager, 'following', id, clamp(person.followingCount), person.followingVersion);
    },
    async localIds(manager, afterId, limit) {
      const rows = (await manager.query(
        `SELECT id FROM users WHERE id > $1 AND (followers_version > 0 OR following_version > 0 OR followers_count > 0 OR following_count > 0) ORDER BY id LIMIT $2`,
        [afterId || '00000000-0000-0000-0000-000000000000', limit],
      )) as Array<{ id: string }>;
      return rows.map((row) => row.id);
    },
    async remove(manager, id) {
      await manager.query('UPDATE users SET followers_count = 0, following_count = 0 WHERE id = $1', [id]);
    },
  };
}
