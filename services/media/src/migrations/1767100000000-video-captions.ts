import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Caption tracks of videos, one per video and language; gone with their video. */
export class VideoCaptions1767100000000 implements MigrationInterface {
  name = 'VideoCaptions1767100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "video_caption_revision"`);
    await q.query(`CREATE TABLE "video_captions" ("media_id" uuid NOT NULL, "language" character varying(35) NOT NULL, "timeline_id" uuid NOT NULL, "source_format" character varying(8) NOT NULL, "vtt" text NOT NULL, "cue_count" integer NOT NULL, "revision" bigint NOT NULL, "uploaded_by" uuid NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "video_captions_pkey" PRIMARY KEY ("media_id", "language"))`);
    await q.query(`ALTER TABLE "video_captions" ADD CONSTRAINT "video_captions_media_fkey" FOREIGN KEY ("media_id") REFERENCES "media"("id") ON DELETE CASCADE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "video_captions"`);
    await q.query(`DROP SEQUENCE "video_caption_revision"`);
  }
}
