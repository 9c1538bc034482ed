import type { MigrationInterface, QueryRunner } from 'typeorm';

/** "Download your data": a person's archives, their progress and when their file expires. */
export class DataExports1767000000000 implements MigrationInterface {
  name = 'DataExports1767000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "data_exports" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "status" character varying(12) NOT NULL DEFAULT 'queued', "phase" character varying(12) NOT NULL DEFAULT 'waiting', "progress" integer NOT NULL DEFAULT '0', "object_key" character varying(300), "file_name" character varying(120) NOT NULL, "size_bytes" bigint, "error" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, "expires_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "data_exports_pkey" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "data_exports_user_idx" ON "data_exports" ("user_id", "created_at")`);
    await q.query(`CREATE INDEX "data_exports_expires_idx" ON "data_exports" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "data_exports"`);
  }
}
