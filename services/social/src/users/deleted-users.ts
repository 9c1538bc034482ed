import type { EntityManager } from 'typeorm';

/**
 * Deleted accounts are remembered (`deleted_users`) so that a registration or profile change
 * arriving after the deletion (on another subject) is known to be about someone gone, not someone
 * not heard of yet, and does not bring them back. What is kept is not the id but a keyed one-way
 * digest of it: sha256(salt || id), the salt 32 random bytes made once per deployment by the
 * migration (`deleted_users_key`, one row). A lookup computes the same digest of the id it has; a
 * row says nothing about whom it was for without that id in hand (ids are random UUIDs, so they
 * cannot be guessed back), and no row names the person.
 *
 * The salt lives in the database rather than coming from the service's identity key: that key is
 * rotated (a keyring), and a digest under a key no longer accepted could not be found again, so a
 * late event would bring the person back. Computed in SQL (Postgres' own sha256, no extension),
 * so the event handlers and the rebuild's set-based upsert use one expression.
 */
export const deletedUserDigest = (idSql: string): string => `(SELECT sha256(k.salt || convert_to((${idSql})::uuid::text, 'UTF8')) FROM deleted_users_key k)`;

/** Whether the account was deleted. */
export async function isDeletedAccount(manager: EntityManager, userId: string): Promise<boolean> {
  const rows: unknown[] = await manager.query(`SELECT 1 FROM deleted_users WHERE digest = ${deletedUserDigest('$1')}`, [userId]);
  return rows.length > 0;
}

/** Remembers that the account was deleted (applying it twice is harmless). */
export async function rememberDeletedAccount(manager: EntityManager, userId: string): Promise<void> {
  await manager.query(`INSERT INTO deleted_users (digest) VALUES (${deletedUserDigest('$1')}) ON CONFLICT DO NOTHING`, [userId]);
}
