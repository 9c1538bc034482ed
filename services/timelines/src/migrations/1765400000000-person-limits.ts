import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createPersonLimitTable, dropPersonLimitTable } from '@timeliner/platform';

/** What each person did that is limited per hour and day (invitation e-mails). */
export class PersonLimits1765400000000 implements MigrationInterface {
  name = 'PersonLimits1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await createPersonLimitTable(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await dropPersonLimitTable(q);
  }
}
