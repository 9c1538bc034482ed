import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What an export contains, so a fresh one of the same content is handed out again; lookups for the limits. */
export class ExportLimits1764400000000 implements MigrationInterface {
  name = 'ExportLimits1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "exports" ADD "content_key" character varying(64) NOT NULL DEFAULT ''`);
    await q.query(`CREATE INDEX "exports_requester_idx" ON "exports" ("requested_by", "created_at")`);
    await q.query(`CREATE INDEX "exports_created_idx" ON "exports" ("created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "exports_created_idx"`);
    await q.query(`DROP INDEX "exports_requester_idx"`);
    await q.query(`ALTER TABLE "exports" DROP COLUMN "content_key"`);
  }
}
