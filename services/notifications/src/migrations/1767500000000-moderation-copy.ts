import type { MigrationInterface, QueryRunner } from 'typeorm';
import { MODERATION_COPY_DDL } from '@timeliner/platform';

/** The copy of the moderation desk's standing decisions (hidden items, suspended accounts) the social service owns (platform moderation-copy). */
export class ModerationCopy1767500000000 implements MigrationInterface {
  name = 'ModerationCopy1767500000000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of MODERATION_COPY_DDL.up) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of MODERATION_COPY_DDL.down) await q.query(statement);
  }
}
