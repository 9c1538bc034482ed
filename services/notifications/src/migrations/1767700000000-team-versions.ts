import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The copy of the teams keeps the version of each member's last change (the timelines service's
 * members_version), and of each removal, so reordered, redelivered or replayed changes never undo
 * a newer one, and a rebuild from the timelines service's replay can take the teams as they stand.
 */
export class TeamVersions1767700000000 implements MigrationInterface {
  name = 'TeamVersions1767700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timeline_members" ADD "version" bigint NOT NULL DEFAULT '0'`);
    await q.query(
      `CREATE TABLE "timeline_member_removals" ("timeline_id" uuid NOT NULL, "user_id" uuid NOT NULL, "version" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_timeline_member_removals" PRIMARY KEY ("timeline_id", "user_id"))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "timeline_member_removals"`);
    await q.query(`ALTER TABLE "timeline_members" DROP COLUMN "version"`);
  }
}
