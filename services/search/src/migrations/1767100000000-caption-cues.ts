import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Words spoken in videos: caption tracks (revisions, tombstones) and their cues, searchable. */
export class CaptionCues1767100000000 implements MigrationInterface {
  name = 'CaptionCues1767100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "caption_tracks" ("media_id" uuid NOT NULL, "language" character varying(35) NOT NULL, "timeline_id" uuid NOT NULL, "revision" bigint NOT NULL, "removed" boolean NOT NULL DEFAULT false, CONSTRAINT "caption_tracks_pkey" PRIMARY KEY ("media_id", "language"))`);
    await q.query(`CREATE INDEX "caption_tracks_timeline_idx" ON "caption_tracks" ("timeline_id")`);
    await q.query(`CREATE TABLE "caption_cues" ("media_id" uuid NOT NULL, "language" character varying(35) NOT NULL, "position" integer NOT NULL, "timeline_id" uuid NOT NULL, "start_ms" integer NOT NULL, "end_ms" integer NOT NULL, "text" character varying(1000) NOT NULL, "document" tsvector NOT NULL, CONSTRAINT "caption_cues_pkey" PRIMARY KEY ("media_id", "language", "position"))`);
    await q.query(`CREATE INDEX "caption_cues_timeline_idx" ON "caption_cues" ("timeline_id")`);
    await q.query(`CREATE INDEX "caption_cues_document_idx" ON "caption_cues" USING gin ("document")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "caption_cues"`);
    await q.query(`DROP TABLE "caption_tracks"`);
  }
}
