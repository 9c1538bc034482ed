import type { EntityManager } from 'typeorm';

/** A deletion waiting for its grace period to end. */
export interface PendingDeletion {
  userId: string;
  purgeAfter: Date;
}

/** account_deletions: who asked to be deleted, and when everything goes. */
export class AccountDeletionRepository {
  /**
   * Asks for a deletion with the version of the AccountDeletionChanged announcing it (kept for the
   * moderation copies' replay); a second request keeps the first date and takes the new version.
   */
  async request(manager: EntityManager, userId: string, purgeAfter: Date, version: bigint): Promise<Date> {
    const [row] = (await manager.query(
      `INSERT INTO account_deletions (user_id, requested_at, purge_after, version) VALUES ($1, now(), $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET version = EXCLUDED.version RETURNING purge_after`,
      [userId, purgeAfter, version.toString()],
    )) as Array<{ purge_after: Date }>;
    return row!.purge_after;
  }

  async find(manager: EntityManager, userId: string): Promise<PendingDeletion | null> {
    const [row] = (await manager.query('SELECT user_id, purge_after FROM account_deletions WHERE user_id = $1', [userId])) as Array<{ user_id: string; purge_after: Date }>;
    return row ? { userId: row.user_id, purgeAfter: row.purge_after } : null;
  }

  /** A new cancel token for the account (the last one given out is the one that works). */
  async offerCancel(manager: EntityManager, userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await manager.query('UPDATE account_deletions SET cancel_token_hash = $2, cancel_token_expires_at = $3 WHERE user_id = $1', [userId, tokenHash, expiresAt]);
  }

  /** Cancels the deletion the token was given for, once: the account it was, or null. */
  async cancel(manager: EntityManager, tokenHash: string): Promise<string | null> {
    // A DELETE's answer through TypeORM is [rows, count].
    const [rows] = (await manager.query(
      'DELETE FROM account_deletions WHERE cancel_token_hash = $1 AND cancel_token_expires_at > now() AND purge_after > now() RETURNING user_id',
      [tokenHash],
    )) as [Array<{ user_id: string }>, number];
    return rows[0]?.user_id ?? null;
  }

  /** The next version of a deletion's request or cancellation, in commit order of the changes (AccountDeletionChanged). */
  async nextVersion(manager: EntityManager): Promise<bigint> {
    const [row] = (await manager.query(`SELECT nextval('account_deletion_version_seq') AS version`)) as Array<{ version: string }>;
    return BigInt(row!.version);
  }

  /** Locks the account's deletion when it is still due (not cancelled meanwhile). */
  async lockIfDue(manager: EntityManager, userId: string, now: Date): Promise<boolean> {
    const rows = (await manager.query('SELECT 1 FROM account_deletions WHERE user_id = $1 AND purge_after <= $2 FOR UPDATE', [userId, now])) as unknown[];
    return rows.length > 0;
  }

  /** Accounts whose grace period is over, oldest first. */
  async due(manager: EntityManager, now: Date, limit = 20): Promise<string[]> {
    const rows = (await manager.query('SELECT user_id FROM account_deletions WHERE purge_after <= $1 ORDER BY purge_after LIMIT $2', [now, limit])) as Array<{ user_id: string }>;
    return rows.map((r) => r.user_id);
  }
}
