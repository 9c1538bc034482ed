import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The version of the comment count last applied, so redelivered, reordered or replayed comment events never put an older count back. */
export class CommentCountVersions1767700000000 implements MigrationInterface {
  name = 'CommentCountVersions1767700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timelines" ADD "comments_version" bigint NOT NULL DEFAULT '0'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timelines" DROP COLUMN "comments_version"`);
  }
}
