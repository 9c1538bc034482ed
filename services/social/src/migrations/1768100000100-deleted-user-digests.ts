import { randomBytes } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deleted accounts are remembered by a keyed one-way digest of their id instead of the id
 * (users/deleted-users.ts): the per-deployment salt is made here, and the ids remembered so far
 * are turned into digests in place. Reverting cannot turn digests back into ids: it forgets them.
 */
export class DeletedUserDigests1768100000100 implements MigrationInterface {
  name = 'DeletedUserDigests1768100000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "deleted_users_key" ("id" boolean NOT NULL DEFAULT true, "salt" bytea NOT NULL, CONSTRAINT "deleted_users_key_pkey" PRIMARY KEY ("id"), CONSTRAINT "deleted_users_key_one_row" CHECK ("id"))`);
    await q.query(`INSERT INTO "deleted_users_key" ("salt") VALUES ($1)`, [randomBytes(32)]);
    await q.query(`ALTER TABLE "deleted_users" ADD "digest" bytea`);
    await q.query(`UPDATE "deleted_users" d SET "digest" = sha256(k."salt" || convert_to(d."id"::text, 'UTF8')) FROM "deleted_users_key" k`);
    await q.query(`ALTER TABLE "deleted_users" DROP CONSTRAINT "deleted_users_pkey"`);
    await q.query(`ALTER TABLE "deleted_users" DROP COLUMN "id"`);
    await q.query(`ALTER TABLE "deleted_users" ALTER COLUMN "digest" SET NOT NULL`);
    await q.query(`ALTER TABLE "deleted_users" ADD CONSTRAINT "deleted_users_pkey" PRIMARY KEY ("digest")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "deleted_users"`);
    await q.query(`ALTER TABLE "deleted_users" DROP CONSTRAINT "deleted_users_pkey"`);
    await q.query(`ALTER TABLE "deleted_users" DROP COLUMN "digest"`);
    await q.query(`ALTER TABLE "deleted_users" ADD "id" uuid NOT NULL`);
    await q.query(`ALTER TABLE "deleted_users" ADD CONSTRAINT "deleted_users_pkey" PRIMARY KEY ("id")`);
    await q.query(`DROP TABLE "deleted_users_key"`);
  }
}
