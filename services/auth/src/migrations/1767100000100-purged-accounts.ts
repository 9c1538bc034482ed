import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts purged within the hour: the second UserDeleted that sweeps what late events wrote. */
export class PurgedAccounts1767100000100 implements MigrationInterface {
  name = 'PurgedAccounts1767100000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "purged_accounts" ("user_id" uuid NOT NULL, "username" character varying(30) NOT NULL, "email" character varying(254) NOT NULL, "sweep_after" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_9b8cace4e86e4234258b91b15ee" PRIMARY KEY ("user_id"))`);
    await q.query(`CREATE INDEX "purged_accounts_sweep_after_idx" ON "purged_accounts"  ("sweep_after") `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "purged_accounts"`);
  }
}
