import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The version of the like count last applied, so redelivered or reordered like events never make it drift. */
export class LikeCounts1764400000100 implements MigrationInterface {
  name = 'LikeCounts1764400000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timelines" ADD "likes_version" bigint NOT NULL DEFAULT '0'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timelines" DROP COLUMN "likes_version"`);
  }
}
