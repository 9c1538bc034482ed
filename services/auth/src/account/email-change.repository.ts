import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { EmailChange } from './email-change.entity.js';

/** A confirmed change: whose address, and the new one. */
export interface UsedEmailChange {
  userId: string;
  newEmail: string;
}

/** email_changes: changes of address waiting for their confirmation, by the hash of the link's token. */
export class EmailChangeRepository {
  /** One change waits at a time: a new request replaces the one before. */
  async replacePending(manager: EntityManager, change: { userId: string; newEmail: string; tokenHash: string; expiresAt: Date }): Promise<void> {
    await manager.update(EmailChange, { userId: change.userId, used: false }, { used: true });
    await manager.insert(EmailChange, { id: randomUUID(), ...change, used: false });
  }

  /** Uses up an open link in the same statement that finds it; answers the change it confirms. */
  async use(manager: EntityManager, tokenHash: string): Promise<UsedEmailChange | undefined> {
    const [rows]: [Array<{ user_id: string; new_email: string }>, number] = await manager.query(
      `UPDATE email_changes SET used = true WHERE token_hash = $1 AND used = false AND expires_at > now() RETURNING user_id, new_email`,
      [tokenHash],
    );
    const row = rows[0];
    return row && { userId: row.user_id, newEmail: row.new_email };
  }
}
