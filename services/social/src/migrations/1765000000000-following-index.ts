import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The following tab reads each followed person's newest public published timelines: this partial
 * index holds exactly those, so the read is an index-only scan per person.
 */
export class FollowingIndex1765000000000 implements MigrationInterface {
  name = 'FollowingIndex1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "feed_timelines_public_creator_idx" ON "feed_timelines" ("creator_id", "created_at", "id") WHERE "visibility" = 'public' AND "status" = 'published'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "feed_timelines_public_creator_idx"`);
  }
}
