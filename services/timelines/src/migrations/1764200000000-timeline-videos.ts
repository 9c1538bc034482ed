import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The processed videos each timeline counts (videoCount and duration follow the media service's events). */
export class TimelineVideos1764200000000 implements MigrationInterface {
  name = 'TimelineVideos1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "timeline_videos" ("media_id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "duration" double precision NOT NULL DEFAULT '0', CONSTRAINT "PK_timeline_videos" PRIMARY KEY ("media_id"))`);
    await q.query(`CREATE INDEX "timeline_videos_timeline_idx" ON "timeline_videos" ("timeline_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "timeline_videos"`);
  }
}
