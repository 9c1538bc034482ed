import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts whose owners asked for deletion: the grace period's end, and the token that cancels it. */
export class AccountDeletions1767100000000 implements MigrationInterface {
  name = 'AccountDeletions1767100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "account_deletions" ("user_id" uuid NOT NULL, "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL, "purge_after" TIMESTAMP WITH TIME ZONE NOT NULL, "cancel_token_hash" character(64), "cancel_token_expires_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_b359fd5c47945357b8ab9c3f78a" PRIMARY KEY ("user_id"))`);
    await q.query(`CREATE UNIQUE INDEX "account_deletions_cancel_token_hash_key" ON "account_deletions"  ("cancel_token_hash") `);
    await q.query(`CREATE INDEX "account_deletions_purge_after_idx" ON "account_deletions"  ("purge_after") `);
    await q.query(`ALTER TABLE "account_deletions" ADD CONSTRAINT "FK_b359fd5c47945357b8ab9c3f78a" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "account_deletions"`);
  }
}
