import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deleted accounts, kept after their row in `users` goes: a profile change or a registration that
 * comes after the deletion (on another subject) is then known to be about someone gone, not
 * someone not heard of yet, and does not bring them back.
 */
export class DeletedUsers1766100000000 implements MigrationInterface {
  name = 'DeletedUsers1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "deleted_users" ("id" uuid NOT NULL, "deleted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "deleted_users_pkey" PRIMARY KEY ("id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "deleted_users"`);
  }
}
