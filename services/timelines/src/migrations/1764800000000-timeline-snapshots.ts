import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * TimelineSnapshot: the revision each snapshot carries (consumers keep the highest), and what the
 * cover (first processed video in the timeline's order) is computed from: the media service's
 * order as its last MediaReordered announced it, and when each video was first counted.
 */
export class TimelineSnapshots1764800000000 implements MigrationInterface {
  name = 'TimelineSnapshots1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timelines" ADD "video_order" uuid array`);
    await q.query(`ALTER TABLE "timelines" ADD "revision" bigint NOT NULL DEFAULT '0'`);
    await q.query(`ALTER TABLE "timeline_videos" ADD "added_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timeline_videos" DROP COLUMN "added_at"`);
    await q.query(`ALTER TABLE "timelines" DROP COLUMN "revision"`);
    await q.query(`ALTER TABLE "timelines" DROP COLUMN "video_order"`);
  }
}
