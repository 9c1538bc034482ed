import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Private accounts: the flag of each person, and who follows whom (private-accounts/private-accounts.ts). */
export class PrivateAccounts1766500000000 implements MigrationInterface {
  name = 'PrivateAccounts1766500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD "is_private" boolean NOT NULL DEFAULT false`);
    await q.query(`CREATE TABLE "account_follows" ("followee_id" uuid NOT NULL, "follower_id" uuid NOT NULL, "active" boolean NOT NULL, "version" bigint NOT NULL, CONSTRAINT "account_follows_pkey" PRIMARY KEY ("followee_id", "follower_id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "account_follows"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "is_private"`);
  }
}
