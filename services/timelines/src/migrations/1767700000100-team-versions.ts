import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each timeline's team version (members_version, from one sequence for all teams): the version of
 * the team's last change, carried by CollaboratorAdded, CollaboratorRemoved and
 * OwnershipTransferred and by the replay of the teams, so a copy of a team never takes an older
 * change over a newer one. Teams with collaborators start with a version of their own.
 */
export class TeamVersions1767700000100 implements MigrationInterface {
  name = 'TeamVersions1767700000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "members_version_seq"`);
    await q.query(`ALTER TABLE "timelines" ADD "members_version" bigint NOT NULL DEFAULT '0'`);
    await q.query(
      `UPDATE "timelines" t SET "members_version" = nextval('members_version_seq')
        WHERE EXISTS (SELECT 1 FROM "collaborators" c WHERE c."timeline_id" = t."id" AND c."role" <> 'owner')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timelines" DROP COLUMN "members_version"`);
    await q.query(`DROP SEQUENCE "members_version_seq"`);
  }
}
