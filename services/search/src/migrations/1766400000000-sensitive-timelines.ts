import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Search's copy of a timeline knows whether it is marked sensitive (TimelineSnapshot.sensitive). */
export class SensitiveTimelines1766400000000 implements MigrationInterface {
  name = 'SensitiveTimelines1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timelines" ADD "sensitive" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timelines" DROP COLUMN "sensitive"`);
  }
}
