import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A video or image marked sensitive by its creators, and the moderation desk's standing decision
 * on it (marked sensitive, hidden) with the decision's version, so a late event never undoes a
 * newer one.
 */
export class MediaSensitive1767600000000 implements MigrationInterface {
  name = 'MediaSensitive1767600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "media" ADD "sensitive" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "media" ADD "moderated_sensitive" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "media" ADD "moderated_hidden" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "media" ADD "moderation_version" bigint NOT NULL DEFAULT '0'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "media" DROP COLUMN "moderation_version"`);
    await q.query(`ALTER TABLE "media" DROP COLUMN "moderated_hidden"`);
    await q.query(`ALTER TABLE "media" DROP COLUMN "moderated_sensitive"`);
    await q.query(`ALTER TABLE "media" DROP COLUMN "sensitive"`);
  }
}
