import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { HashedRecoveryCode } from './recovery-codes.js';

export interface TotpRow {
  /** Sealed (SecretBox). */
  secret: string;
  confirmedAt: Date | null;
  lastStep: number | null;
}

export interface StoredRecoveryCode extends HashedRecoveryCode {
  id: string;
}

export interface PendingSignInRow {
  id: string;
  userId: string;
  attempts: number;
}

/** totp_factors, recovery_codes and pending_sign_ins: a person's second step and the sign-ins waiting for it. */
export class TwoStepRepository {
  constructor(private readonly dataSource: DataSource) {}

  async totp(userId: string, manager?: EntityManager): Promise<TotpRow | undefined> {
    const rows: Array<{ secret: string; confirmed_at: Date | null; last_step: string | null }> = await (manager ?? this.dataSource).query(
      `SELECT secret, confirmed_at, last_step FROM totp_factors WHERE user_id = $1${manager ? ' FOR UPDATE' : ''}`,
      [userId],
    );
    const row = rows[0];
    return row && { secret: row.secret, confirmedAt: row.confirmed_at, lastStep: row.last_step === null ? null : Number(row.last_step) };
  }

  /** A new secret waiting for its first code; replaces one not confirmed yet, never one that is on. Answers whether it was stored. */
  async startTotp(userId: string, sealedSecret: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO totp_factors (user_id, secret, confirmed_at, last_step) VALUES ($1, $2, NULL, NULL)
       ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, created_at = now(), last_step = NULL WHERE totp_factors.confirmed_at IS NULL
       RETURNING user_id`,
      [userId, sealedSecret],
    );
    return rows.length > 0;
  }

  /** Turns two-step sign-in on with the step of the code that confirmed it. */
  async confirmTotp(manager: EntityManager, userId: string, step: number): Promise<void> {
    await manager.query('UPDATE totp_factors SET confirmed_at = now(), last_step = $2 WHERE user_id = $1', [userId, step]);
  }

  /**
   * Records a code's step as used, only when it is later than the last one used: the statement
   * that accepts a code is the one that makes it unusable, so a replay (even a concurrent one) fails.
   */
  async useStep(manager: EntityManager, userId: string, step: number): Promise<boolean> {
    const [, updated]: [unknown, number] = await manager.query(
      'UPDATE totp_factors SET last_step = $2 WHERE user_id = $1 AND confirmed_at IS NOT NULL AND (last_step IS NULL OR last_step < $2)',
      [userId, step],
    );
    return updated > 0;
  }

  async removeTotp(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('DELETE FROM totp_factors WHERE user_id = $1', [userId]);
    await manager.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  }

  /** Whether signing in with a password asks for a code. */
  async isOn(userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM totp_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL', [userId]);
    return rows.length > 0;
  }

  /** A new set of recovery codes; every earlier one stops working. */
  async replaceRecoveryCodes(manager: EntityManager, userId: string, codes: HashedRecoveryCode[]): Promise<void> {
    await manager.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
    for (const code of codes) {
      await manager.query('INSERT INTO recovery_codes (id, user_id, salt, code_hash) VALUES ($1, $2, $3, $4)', [randomUUID(), userId, code.salt, code.codeHash]);
    }
  }

  /** The codes not used yet, locked until the transaction ends. */
  async unusedRecoveryCodes(manager: EntityManager, userId: string): Promise<StoredRecoveryCode[]> {
    const rows: Array<{ id: string; salt: string; code_hash: string }> = await manager.query(
      'SELECT id, salt, code_hash FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL ORDER BY id FOR UPDATE',
      [userId],
    );
    return rows.map((row) => ({ id: row.id, salt: row.salt, codeHash: row.code_hash }));
  }

  async useRecoveryCode(manager: EntityManager, id: string): Promise<boolean> {
    const [, updated]: [unknown, number] = await manager.query('UPDATE recovery_codes SET used_at = now() WHERE id = $1 AND used_at IS NULL', [id]);
    return updated > 0;
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    const rows: Array<{ count: number }> = await this.dataSource.query('SELECT count(*)::int AS count FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL', [userId]);
    return rows[0]?.count ?? 0;
  }

  async insertPending(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.dataSource.query('INSERT INTO pending_sign_ins (id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)', [randomUUID(), userId, tokenHash, expiresAt]);
  }

  /** A sign-in still waiting for its code: not used, not expired, not worn out by wrong codes. */
  async openPending(tokenHash: string, maxAttempts: number): Promise<PendingSignInRow | undefined> {
    const rows: Array<{ id: string; user_id: string; attempts: number }> = await this.dataSource.query(
      'SELECT id, user_id, attempts FROM pending_sign_ins WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() AND attempts < $2',
      [tokenHash, maxAttempts],
    );
    const row = rows[0];
    return row && { id: row.id, userId: row.user_id, attempts: row.attempts };
  }

  async countWrongCode(id: string): Promise<void> {
    await this.dataSource.query('UPDATE pending_sign_ins SET attempts = attempts + 1 WHERE id = $1', [id]);
  }

  /** Uses the pending sign-in up in the statement that finds it still open. */
  async usePending(manager: EntityManager, id: string): Promise<boolean> {
    const [, updated]: [unknown, number] = await manager.query('UPDATE pending_sign_ins SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > now()', [id]);
    return updated > 0;
  }

  async deleteStale(): Promise<void> {
    await this.dataSource.query(`DELETE FROM pending_sign_ins WHERE expires_at < now() - interval '1 day'`);
  }
}
