import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The videos read model knows images too (media_type), so a single image can be reported and
 * decided on like a video; likes and comments stay for videos only.
 */
export class ReportableImages1768200000000 implements MigrationInterface {
  name = 'ReportableImages1768200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "videos" ADD "media_type" character varying(10) NOT NULL DEFAULT 'video'`);
    await q.query(`ALTER TABLE "videos" ADD CONSTRAINT "videos_media_type_check" CHECK ("media_type" IN ('video', 'image'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "videos" WHERE "media_type" = 'image'`);
    await q.query(`ALTER TABLE "videos" DROP CONSTRAINT "videos_media_type_check"`);
    await q.query(`ALTER TABLE "videos" DROP COLUMN "media_type"`);
  }
}
