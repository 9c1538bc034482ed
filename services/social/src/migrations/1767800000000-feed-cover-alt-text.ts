import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The feed's copy of a timeline knows its cover video's short description (TimelineSnapshot.cover_alt_text). */
export class FeedCoverAltText1767800000000 implements MigrationInterface {
  name = 'FeedCoverAltText1767800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "feed_timelines" ADD "cover_alt_text" character varying(1500)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "feed_timelines" DROP COLUMN "cover_alt_text"`);
  }
}
