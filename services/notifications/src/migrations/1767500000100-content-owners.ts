import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Private accounts in notifications: whether each person's account is private (auth's events),
 * and whose content each notification is about, so what a person was told about a private
 * account's content goes when they stop being one of its followers, and about a suspended
 * person's content when the suspension starts.
 */
export class ContentOwners1767500000100 implements MigrationInterface {
  name = 'ContentOwners1767500000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD "is_private" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "notifications" ADD "owner_id" uuid`);
    await q.query(`CREATE INDEX "notifications_owner_idx" ON "notifications" ("owner_id", "recipient_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "notifications_owner_idx"`);
    await q.query(`ALTER TABLE "notifications" DROP COLUMN "owner_id"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "is_private"`);
  }
}
