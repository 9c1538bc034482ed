import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The feed's copy of a timeline knows whether it is marked sensitive (TimelineSnapshot.sensitive). */
export class SensitiveFeedTimelines1766400000000 implements MigrationInterface {
  name = 'SensitiveFeedTimelines1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "feed_timelines" ADD "sensitive" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "feed_timelines" DROP COLUMN "sensitive"`);
  }
}
