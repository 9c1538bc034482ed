import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The version of each item's alt text, one up with every change: MediaAltTextChanged carries it,
 * so a copy of the text never takes an older one over a newer.
 */
export class AltTextVersions1767800000000 implements MigrationInterface {
  name = 'AltTextVersions1767800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "media" ADD "alt_text_version" bigint NOT NULL DEFAULT '0'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "media" DROP COLUMN "alt_text_version"`);
  }
}
