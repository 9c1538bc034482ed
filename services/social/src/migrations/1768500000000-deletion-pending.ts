import { MODERATION_COPY_DDL } from '@timeliner/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts waiting to be deleted (auth's AccountDeletionChanged), kept as the other services keep
 * them: the platform's moderation copy (`moderation_hidden`), here holding only that kind
 * (`account_deletion`), as the desk's own decisions live in its own tables.
 */
export class DeletionPending1768500000000 implements MigrationInterface {
  name = 'DeletionPending1768500000000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of MODERATION_COPY_DDL.up) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of MODERATION_COPY_DDL.down) await q.query(statement);
  }
}
