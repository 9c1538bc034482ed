import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { PasswordReset } from './password-reset.entity.js';

/** password_resets: one-time reset links, by the hash of their token. */
export class PasswordResetRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.dataSource.getRepository(PasswordReset).insert({ id: randomUUID(), userId, tokenHash, expiresAt, used: false });
  }

  /**
   * Uses up an open link in the same statement that finds it, so two tries with one link cannot
   * both succeed; answers whose it was.
   */
  async use(manager: EntityManager, tokenHash: string): Promise<string | undefined> {
    const [rows]: [Array<{ user_id: string }>, number] = await manager.query(
      `UPDATE password_resets SET used = true WHERE token_hash = $1 AND used = false AND expires_at > now() RETURNING user_id`,
      [tokenHash],
    );
    return rows[0]?.user_id;
  }

  /** Uses up every open link of a person. */
  async useAllOf(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('UPDATE password_resets SET used = true WHERE user_id = $1 AND used = false', [userId]);
  }
}
