import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Versions of the follower and following counts, so an older FollowChanged never overwrites a newer one. */
export class FollowCountVersions1764500000100 implements MigrationInterface {
  name = 'FollowCountVersions1764500000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD "followers_version" bigint NOT NULL DEFAULT '0'`);
    await q.query(`ALTER TABLE "users" ADD "following_version" bigint NOT NULL DEFAULT '0'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" DROP COLUMN "following_version"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "followers_version"`);
  }
}
