import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A single video or image may be reported; a post may be marked sensitive by its author. */
export class ReportedMediaSensitivePosts1767600000000 implements MigrationInterface {
  name = 'ReportedMediaSensitivePosts1767600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "content_reports" DROP CONSTRAINT "content_reports_type_check"`);
    await q.query(`ALTER TABLE "content_reports" ADD CONSTRAINT "content_reports_type_check" CHECK ("content_type" IN ('post', 'timeline', 'video', 'video_comment', 'post_comment', 'timeline_comment'))`);
    await q.query(`ALTER TABLE "posts" ADD "sensitive" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "posts" DROP COLUMN "sensitive"`);
    await q.query(`DELETE FROM "content_reports" WHERE "content_type" = 'video'`);
    await q.query(`ALTER TABLE "content_reports" DROP CONSTRAINT "content_reports_type_check"`);
    await q.query(`ALTER TABLE "content_reports" ADD CONSTRAINT "content_reports_type_check" CHECK ("content_type" IN ('post', 'timeline', 'video_comment', 'post_comment', 'timeline_comment'))`);
  }
}
