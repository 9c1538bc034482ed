import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order of deletion requests and their cancellations (AccountDeletionChanged's `version`): the
 * read models hide a person while a deletion is pending and take a change over an older one only.
 */
export class AccountDeletionVersions1768500000000 implements MigrationInterface {
  name = 'AccountDeletionVersions1768500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "account_deletion_version_seq"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SEQUENCE "account_deletion_version_seq"`);
  }
}
