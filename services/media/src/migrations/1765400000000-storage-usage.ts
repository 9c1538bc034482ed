import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createPersonLimitTable, dropPersonLimitTable } from '@timeliner/platform';

/**
 * Storage usage per person, kept by a trigger on `media`: a row's stored bytes are its original
 * (until deleted after failed processing) plus what processing made of it (measured by the
 * sweep). Every insert, measurement, deletion of an original or of the row moves the uploader's
 * total by the difference. Also the per-person limits table (exports per hour and day).
 */
export class StorageUsage1765400000000 implements MigrationInterface {
  name = 'StorageUsage1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await createPersonLimitTable(q);
    await q.query(`ALTER TABLE "media" ADD "rendition_bytes" bigint NOT NULL DEFAULT '0'`);
    await q.query(`ALTER TABLE "media" ADD "renditions_measured_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "media" ADD "original_deleted_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`CREATE INDEX "media_unmeasured_idx" ON "media" ("processed_at") WHERE "renditions_measured_at" IS NULL`);
    await q.query(`CREATE INDEX "media_failed_original_idx" ON "media" ("processed_at") WHERE "status" = 'error' AND "original_deleted_at" IS NULL`);
    await q.query(`CREATE TABLE "storage_usage" (
      "user_id" uuid NOT NULL,
      "bytes" bigint NOT NULL DEFAULT '0',
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "storage_usage_pkey" PRIMARY KEY ("user_id"))`);
    // SET search_path FROM CURRENT: the function works in this service's schema whoever fires it.
    await q.query(`CREATE FUNCTION "media_storage_usage"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        old_bytes bigint := 0;
        new_bytes bigint := 0;
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          old_bytes := CASE WHEN OLD.original_deleted_at IS NULL THEN OLD.file_size ELSE 0 END + OLD.rendition_bytes;
        END IF;
        IF TG_OP <> 'DELETE' THEN
          new_bytes := CASE WHEN NEW.original_deleted_at IS NULL THEN NEW.file_size ELSE 0 END + NEW.rendition_bytes;
        END IF;
        IF TG_OP = 'UPDATE' AND OLD.uploader_id = NEW.uploader_id THEN
          new_bytes := new_bytes - old_bytes;
          old_bytes := 0;
        END IF;
        IF old_bytes <> 0 THEN
          INSERT INTO storage_usage AS u (user_id, bytes) VALUES (OLD.uploader_id, -old_bytes)
            ON CONFLICT (user_id) DO UPDATE SET bytes = u.bytes + EXCLUDED.bytes, updated_at = now();
        END IF;
        IF new_bytes <> 0 THEN
          INSERT INTO storage_usage AS u (user_id, bytes) VALUES (NEW.uploader_id, new_bytes)
            ON CONFLICT (user_id) DO UPDATE SET bytes = u.bytes + EXCLUDED.bytes, updated_at = now();
        END IF;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER "media_storage_usage" AFTER INSERT OR DELETE OR UPDATE OF "file_size", "rendition_bytes", "original_deleted_at", "uploader_id" ON "media"
      FOR EACH ROW EXECUTE FUNCTION "media_storage_usage"()`);
    // What is stored already: the originals (renditions follow as the sweep measures them).
    await q.query(`INSERT INTO "storage_usage" ("user_id", "bytes") SELECT "uploader_id", sum("file_size") FROM "media" GROUP BY "uploader_id"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "media_storage_usage" ON "media"`);
    await q.query(`DROP FUNCTION "media_storage_usage"()`);
    await q.query(`DROP TABLE "storage_usage"`);
    await q.query(`DROP INDEX "media_failed_original_idx"`);
    await q.query(`DROP INDEX "media_unmeasured_idx"`);
    await q.query(`ALTER TABLE "media" DROP COLUMN "original_deleted_at"`);
    await q.query(`ALTER TABLE "media" DROP COLUMN "renditions_measured_at"`);
    await q.query(`ALTER TABLE "media" DROP COLUMN "rendition_bytes"`);
    await dropPersonLimitTable(q);
  }
}
