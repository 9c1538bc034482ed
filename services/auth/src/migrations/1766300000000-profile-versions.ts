import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each profile's version, carried by the profile events and the people replay. */
export class ProfileVersions1766300000000 implements MigrationInterface {
  name = 'ProfileVersions1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD "profile_version" bigint NOT NULL DEFAULT '1'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" DROP COLUMN "profile_version"`);
  }
}
