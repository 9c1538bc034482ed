import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Per-person turns on the processing queue: each person's media waiting for processing, oldest first. */
export class ProcessingTurns1765500000000 implements MigrationInterface {
  name = 'ProcessingTurns1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "media_processing_uploader_idx" ON "media" ("uploader_id", "uploaded_at") WHERE "status" = 'processing'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "media_processing_uploader_idx"`);
  }
}
