import type { MigrationInterface, QueryRunner } from 'typeorm';
import { PERSON_FILTER_COPY_DDL } from '@timeliner/platform';

/** The copy of the blocks, mutes and muted words the social service owns (platform person-filters). */
export class PersonFilters1766600000000 implements MigrationInterface {
  name = 'PersonFilters1766600000000';

  async up(q: QueryRunner): Promise<void> {
    for (const statement of PERSON_FILTER_COPY_DDL.up) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of PERSON_FILTER_COPY_DDL.down) await q.query(statement);
  }
}
