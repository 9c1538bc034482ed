import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The private-account rule (users/private-account-sql.ts) asks, for each creator in a read,
 * whether the account is private. Few are: without this index PostgreSQL answered it by reading
 * every row of `users` once per read (18 ms of a 35 ms search with 100,000 people, growing with
 * them); with it, by the few private ones.
 */
export class PrivateUsersIndex1768400000000 implements MigrationInterface {
  name = 'PrivateUsersIndex1768400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS "users_private_idx" ON "users" ("id") WHERE "is_private"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "users_private_idx"`);
  }
}
