import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The processed images each timeline counts (imageCount follows the media service's events, as videoCount does). */
export class TimelineImages1765500000000 implements MigrationInterface {
  name = 'TimelineImages1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "timeline_images" ("media_id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "added_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_timeline_images" PRIMARY KEY ("media_id"))`);
    await q.query(`CREATE INDEX "timeline_images_timeline_idx" ON "timeline_images" ("timeline_id")`);
    await q.query(`ALTER TABLE "timelines" ADD "image_count" integer NOT NULL DEFAULT '0'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timelines" DROP COLUMN "image_count"`);
    await q.query(`DROP TABLE "timeline_images"`);
  }
}
