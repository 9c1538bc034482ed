import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alt text of images and the short description of videos, and when its creator chose "Add later"
 * (the upload prompt is then not shown again for that item).
 */
export class AltText1767400000000 implements MigrationInterface {
  name = 'AltText1767400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "media" ADD "alt_text" character varying(1500)`);
    await q.query(`ALTER TABLE "media" ADD "alt_text_deferred_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "media" DROP COLUMN "alt_text_deferred_at"`);
    await q.query(`ALTER TABLE "media" DROP COLUMN "alt_text"`);
  }
}
