import { type EventBus, isUuid, serveRpc, type Subscription } from '@timeliner/platform';
import { SocialRpc } from '@timeliner/proto';
import type { DataSource } from 'typeorm';

const MAX_PAGE = 1000;

interface Raw {
  userId: string;
  followersCount: number;
  followersVersion: string;
  followingCount: number;
  followingVersion: string;
}

const SELECT = `SELECT user_id AS "userId", followers_count AS "followersCount", followers_version::text AS "followersVersion",
  following_count AS "followingCount", following_version::text AS "followingVersion" FROM follow_counts`;

/**
 * Answers a read model's rebuild (SocialRpc.ReplayFollowCounts: the auth service's profile
 * counts): people's follower and following counts as they stand, with the versions their
 * FollowChanged events carry, one page in id order at a time, or those of a list of ids. Read
 * only; nothing goes through the outbox. Queue group `social`.
 */
export function serveFollowCountsReplay(bus: EventBus, dataSource: DataSource): Promise<Subscription> {
  return serveRpc(bus, SocialRpc.ReplayFollowCounts, 'social', async ({ afterId, limit, userIds }) => {
    const size = Math.min(Math.max(1, limit || 200), MAX_PAGE);
    if (afterId && !isUuid(afterId)) throw new Error('after_id is not a person id');
    const rows = (
      userIds.length > 0
        ? await dataSource.query(`${SELECT} WHERE user_id = ANY($1::uuid[]) ORDER BY user_id`, [userIds.filter(isUuid).map((id) => id.toLowerCase()).slice(0, MAX_PAGE)])
        : afterId
          ? await dataSource.query(`${SELECT} WHERE user_id > $1 ORDER BY user_id LIMIT $2`, [afterId.toLowerCase(), size])
          : await dataSource.query(`${SELECT} ORDER BY user_id LIMIT $1`, [size])
    ) as Raw[];
    const first = !afterId && userIds.length === 0;
    const [{ n }] = first ? ((await dataSource.query('SELECT count(*)::text AS n FROM follow_counts')) as [{ n: string }]) : [{ n: '0' }];
    return {
      people: rows.map((row) => ({
        userId: row.userId,
        followersCount: BigInt(row.followersCount),
        followersVersion: BigInt(row.followersVersion),
        followingCount: BigInt(row.followingCount),
        followingVersion: BigInt(row.followingVersion),
      })),
      total: BigInt(n),
    };
  });
}
