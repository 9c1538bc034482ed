import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts the moderators suspended (social's AccountSuspensionChanged events): sign-in is refused
 * while one is in force, with its reason and end date. Versioned: an older event never undoes a
 * newer decision.
 */
export class AccountSuspensions1766800000000 implements MigrationInterface {
  name = 'AccountSuspensions1766800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "account_suspensions" ("user_id" uuid NOT NULL, "active" boolean NOT NULL, "until" TIMESTAMP WITH TIME ZONE, "reason" character varying(1000) NOT NULL DEFAULT '', "version" bigint NOT NULL, CONSTRAINT "account_suspensions_pkey" PRIMARY KEY ("user_id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "account_suspensions"`);
  }
}
