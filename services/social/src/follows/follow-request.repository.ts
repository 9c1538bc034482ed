import type { DataSource, EntityManager } from 'typeorm';
import { type CursorKey, cursorTimestamp } from '@timeliner/platform';

/** One pending request, with what the users read model knows of the person who asked. */
export interface FollowRequestRow {
  requesterId: string;
  requestedAt: Date;
  person: { username: string; displayName: string; avatar: string | null } | null;
  /** Sort key, for the next page's cursor. */
  key: [createdAt: string, requesterId: string];
}

/** A person's number of pending requests after a change, and its version. */
export interface PendingCount {
  count: number;
  version: bigint;
}

interface RawRequestRow {
  requester_id: string;
  created_at: Date;
  created_key: string;
  username: string | null;
  display_name: string | null;
  avatar: string | null;
}

/**
 * follow_requests (who asked to follow which private account) and follow_request_counts (how many
 * wait for each, versioned from count_version_seq). Changes run under the follow count rows' locks
 * (FollowRepository.lock), so a request, its approval and a follow of the same pair queue behind
 * each other.
 */
export class FollowRequestRepository {
  constructor(private readonly dataSource: DataSource) {}

  async isRequested(requesterId: string | undefined, targetId: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    if (!requesterId) return false;
    const rows: unknown[] = await manager.query('SELECT 1 FROM follow_requests WHERE requester_id = $1 AND target_id = $2', [requesterId, targetId]);
    return rows.length > 0;
  }

  /** Adds the request; false when it was there already. */
  async add(manager: EntityManager, requesterId: string, targetId: string): Promise<boolean> {
    const added: unknown[] = await manager.query(
      'WITH r AS (INSERT INTO follow_requests (requester_id, target_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1) SELECT * FROM r',
      [requesterId, targetId],
    );
    return added.length > 0;
  }

  /** Deletes the request; false when there was none. */
  async remove(manager: EntityManager, requesterId: string, targetId: string): Promise<boolean> {
    const gone: unknown[] = await manager.query('WITH r AS (DELETE FROM follow_requests WHERE requester_id = $1 AND target_id = $2 RETURNING 1) SELECT * FROM r', [requesterId, targetId]);
    return gone.length > 0;
  }

  /** Who asked to follow the person, oldest first (the order they are approved in when the account turns public). */
  async requesters(manager: EntityManager, targetId: string): Promise<string[]> {
    const rows = (await manager.query('SELECT requester_id FROM follow_requests WHERE target_id = $1 ORDER BY created_at, requester_id', [targetId])) as Array<{ requester_id: string }>;
    return rows.map((r) => r.requester_id);
  }

  /** Recounts the person's pending requests with a new version. */
  async recount(manager: EntityManager, targetId: string): Promise<PendingCount> {
    const [row] = (await manager.query(
      `INSERT INTO follow_request_counts (user_id, pending_count, version)
            VALUES ($1, (SELECT count(*) FROM follow_requests WHERE target_id = $1), nextval('count_version_seq'))
       ON CONFLICT (user_id) DO UPDATE SET pending_count = EXCLUDED.pending_count, version = EXCLUDED.version
       RETURNING pending_count, version::text AS version`,
      [targetId],
    )) as Array<{ pending_count: number; version: string }>;
    return { count: row!.pending_count, version: BigInt(row!.version) };
  }

  async pendingCount(targetId: string): Promise<number> {
    const [row] = (await this.dataSource.query('SELECT count(*)::int AS n FROM follow_requests WHERE target_id = $1', [targetId])) as Array<{ n: number }>;
    return row?.n ?? 0;
  }

  /** Up to `limit` pending requests for the person after `after`, newest first. */
  async list(targetId: string, limit: number, after?: CursorKey): Promise<FollowRequestRow[]> {
    const params: unknown[] = [targetId, limit];
    let condition = 'r.target_id = $1';
    if (after) {
      params.push(after[0], after[1]);
      condition += ' AND (r.created_at, r.requester_id) < ($3::timestamptz, $4::uuid)';
    }
    const rows: RawRequestRow[] = await this.dataSource.query(
      `SELECT r.requester_id, r.created_at, ${cursorTimestamp('r.created_at')} AS created_key, u.username, u.display_name, u.avatar
         FROM follow_requests r
         LEFT JOIN users u ON u.id = r.requester_id
        WHERE ${condition}
        ORDER BY r.created_at DESC, r.requester_id DESC
        LIMIT $2`,
      params,
    );
    return rows.map((raw) => ({
      requesterId: raw.requester_id,
      requestedAt: raw.created_at,
      person: raw.username === null ? null : { username: raw.username, displayName: raw.display_name ?? '', avatar: raw.avatar },
      key: [raw.created_key, raw.requester_id],
    }));
  }

  /** A deleted account: its requests both ways go; the people it had asked get their counts recounted. */
  async forget(manager: EntityManager, userId: string): Promise<string[]> {
    const rows = (await manager.query('WITH gone AS (DELETE FROM follow_requests WHERE requester_id = $1 OR target_id = $1 RETURNING target_id) SELECT DISTINCT target_id FROM gone', [userId])) as Array<{ target_id: string }>;
    await manager.query('DELETE FROM follow_request_counts WHERE user_id = $1', [userId]);
    return rows.map((r) => r.target_id).filter((id) => id !== userId);
  }
}
