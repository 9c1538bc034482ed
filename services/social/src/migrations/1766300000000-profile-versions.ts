import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The version of each person's profile this copy holds (the auth events' profile_version). */
export class ProfileVersions1766300000000 implements MigrationInterface {
  name = 'ProfileVersions1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD "profile_version" bigint NOT NULL DEFAULT '0'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" DROP COLUMN "profile_version"`);
  }
}
