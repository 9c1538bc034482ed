import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A timeline may be marked sensitive (by its owner or the moderators). */
export class SensitiveTimelines1766400000100 implements MigrationInterface {
  name = 'SensitiveTimelines1766400000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timelines" ADD "sensitive" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timelines" DROP COLUMN "sensitive"`);
  }
}
