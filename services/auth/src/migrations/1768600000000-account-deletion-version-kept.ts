import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A pending deletion keeps the version of the AccountDeletionChanged that asked for it, so the
 * moderation copies can rebuild their `account_deletion` rows from auth (AuthRpc.ReplayAccountDeletions).
 * Deletions asked for before take a version of their own now: any is newer than the event that
 * announced them, and older than any later cancellation, which is all a copy compares.
 */
export class AccountDeletionVersionKept1768600000000 implements MigrationInterface {
  name = 'AccountDeletionVersionKept1768600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "account_deletions" ADD "version" bigint`);
    await q.query(`UPDATE "account_deletions" SET "version" = nextval('account_deletion_version_seq')`);
    await q.query(`ALTER TABLE "account_deletions" ALTER COLUMN "version" SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "account_deletions" DROP COLUMN "version"`);
  }
}
