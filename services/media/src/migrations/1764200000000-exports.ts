import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Exports of a timeline's videos as one MP4. */
export class Exports1764200000000 implements MigrationInterface {
  name = 'Exports1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "exports" ("id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "requested_by" uuid NOT NULL, "status" character varying(12) NOT NULL DEFAULT 'queued', "object_key" character varying(300), "file_name" character varying(210) NOT NULL, "max_height" integer NOT NULL DEFAULT '1080', "error" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_bcf8528d214cbfc68c01f337511" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "exports_timeline_idx" ON "exports" ("timeline_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "exports"`);
  }
}
