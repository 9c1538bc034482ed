import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The videos' short descriptions, so a timeline's snapshot carries its cover's (cover_alt_text); they go with their timeline. */
export class MediaAltTexts1767800000000 implements MigrationInterface {
  name = 'MediaAltTexts1767800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "media_alt_texts" ("media_id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "alt_text" character varying(1500) NOT NULL, "version" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_media_alt_texts" PRIMARY KEY ("media_id"))`);
    await q.query(`CREATE INDEX "media_alt_texts_timeline_idx" ON "media_alt_texts" ("timeline_id")`);
    await q.query(`ALTER TABLE "media_alt_texts" ADD CONSTRAINT "FK_c8f5b14c256415404d21e03fa37" FOREIGN KEY ("timeline_id") REFERENCES "timelines"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "media_alt_texts"`);
  }
}
