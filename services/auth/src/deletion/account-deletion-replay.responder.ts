import { type EventBus, isUuid, serveRpc, type Subscription } from '@timeliner/platform';
import { AuthRpc } from '@timeliner/proto';
import type { DataSource } from 'typeorm';

const MAX_PAGE = 1000;

const SELECT = 'SELECT user_id AS "userId", version::text AS version FROM account_deletions';

/**
 * Answers a read model's rebuild (AuthRpc.ReplayAccountDeletions: the moderation copies'
 * `account_deletion` rows): the deletions pending now, with the version of the
 * AccountDeletionChanged that asked for each, one page in id order at a time, or those of a list
 * of ids. Read only; nothing goes through the outbox. Queue group `auth`.
 */
export function serveAccountDeletionsReplay(bus: EventBus, dataSource: DataSource): Promise<Subscription> {
  return serveRpc(bus, AuthRpc.ReplayAccountDeletions, 'auth', async ({ afterId, limit, userIds }) => {
    const size = Math.min(Math.max(1, limit || 200), MAX_PAGE);
    if (afterId && !isUuid(afterId)) throw new Error('after_id is not a user id');
    const rows = (
      userIds.length > 0
        ? await dataSource.query(`${SELECT} WHERE user_id = ANY($1::uuid[]) ORDER BY user_id`, [userIds.filter(isUuid).map((id) => id.toLowerCase()).slice(0, MAX_PAGE)])
        : afterId
          ? await dataSource.query(`${SELECT} WHERE user_id > $1 ORDER BY user_id LIMIT $2`, [afterId.toLowerCase(), size])
          : await dataSource.query(`${SELECT} ORDER BY user_id LIMIT $1`, [size])
    ) as Array<{ userId: string; version: string }>;
    const first = !afterId && userIds.length === 0;
    const [{ n }] = first ? ((await dataSource.query('SELECT count(*)::text AS n FROM account_deletions')) as [{ n: string }]) : [{ n: '0' }];
    return { deletions: rows.map((row) => ({ userId: row.userId, version: BigInt(row.version) })), total: BigInt(n) };
  });
}
