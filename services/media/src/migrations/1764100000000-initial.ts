import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxTables, dropOutboxTables } from '@timeliner/platform';

/** Media, upload sessions, and the event outbox and inbox. */
export class Initial1764100000000 implements MigrationInterface {
  name = 'Initial1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTables(q, 'media');
    await q.query(`CREATE TABLE "media" ("id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "uploader_id" uuid NOT NULL, "filename" character varying(300) NOT NULL, "original_name" character varying(255) NOT NULL, "title" character varying(200) NOT NULL, "media_type" character varying(10) NOT NULL DEFAULT 'video', "duration" double precision NOT NULL DEFAULT '0', "file_size" bigint NOT NULL DEFAULT '0', "mime_type" character varying(100) NOT NULL, "status" character varying(12) NOT NULL DEFAULT 'uploading', "position" integer NOT NULL DEFAULT '0', "thumbnail_key" character varying(300), "hls_master_key" character varying(300), "metadata" jsonb NOT NULL DEFAULT '{}'::jsonb, "error_reason" character varying(500), "uploaded_at" TIMESTAMP WITH TIME ZONE, "processed_at" TIMESTAMP WITH TIME ZONE, "queued_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f4e0fcac36e050de337b670d8bd" PRIMARY KEY ("id"))`);
    // A timeline's media in order: the lists, reorder and the next position.
    await q.query(`CREATE INDEX "media_timeline_position_idx" ON "media" ("timeline_id", "position")`);
    await q.query(`CREATE TABLE "upload_sessions" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "media_id" uuid NOT NULL, "filename" character varying(300) NOT NULL, "original_name" character varying(255) NOT NULL, "mime_type" character varying(100) NOT NULL, "total_size" bigint NOT NULL, "received_bytes" bigint NOT NULL DEFAULT '0', "total_chunks" integer NOT NULL DEFAULT '0', "received_chunks" integer NOT NULL DEFAULT '0', "status" character varying(12) NOT NULL DEFAULT 'active', "multipart_id" character varying(1024), "chunks" jsonb NOT NULL DEFAULT '[]'::jsonb, "tail_key" character varying(300), "tail_size" integer NOT NULL DEFAULT '0', "metadata" jsonb NOT NULL DEFAULT '{}'::jsonb, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4b6ca30b8bb2baa0de9c6bf8fea" PRIMARY KEY ("id"))`);
    // Uploads in progress per user (the per-user limit) and the expiry sweep.
    await q.query(`CREATE INDEX "upload_sessions_user_status_idx" ON "upload_sessions" ("user_id", "status")`);
    await q.query(`CREATE INDEX "upload_sessions_expires_idx" ON "upload_sessions" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "upload_sessions"`);
    await q.query(`DROP TABLE "media"`);
    await dropOutboxTables(q, 'media');
  }
}
