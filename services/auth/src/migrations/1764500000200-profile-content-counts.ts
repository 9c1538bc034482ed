import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-target like counts and per-timeline views and visibility, from which a person's totalLikes,
 * totalViews and timeline counts are kept (counts/content-count-events.ts), and the count of a
 * person's public published timelines (what others see of timelinesCount).
 */
export class ProfileContentCounts1764500000200 implements MigrationInterface {
  name = 'ProfileContentCounts1764500000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "like_targets" ("target_type" character varying(10) NOT NULL, "target_id" uuid NOT NULL, "owner_id" uuid, "likes" integer NOT NULL DEFAULT '0', "version" bigint NOT NULL DEFAULT '0', "deleted" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_948514f5b2f29401c87d1102ec8" PRIMARY KEY ("target_type", "target_id"))`);
    await q.query(`CREATE INDEX "like_targets_owner_id_idx" ON "like_targets"  ("owner_id") `);
    await q.query(`CREATE TABLE "profile_timelines" ("timeline_id" uuid NOT NULL, "creator_id" uuid, "views" bigint NOT NULL DEFAULT '0', "is_public" boolean NOT NULL DEFAULT false, "revision" bigint NOT NULL DEFAULT '0', "deleted" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_23ec47317b4dd7a12f97868b686" PRIMARY KEY ("timeline_id"))`);
    await q.query(`CREATE INDEX "profile_timelines_creator_id_idx" ON "profile_timelines"  ("creator_id") `);
    await q.query(`ALTER TABLE "users" ADD "public_timelines_count" integer NOT NULL DEFAULT '0'`);
    // Nothing kept these before: they start from the events, like the rows above.
    await q.query(`UPDATE "users" SET "timelines_count" = 0, "total_likes" = 0, "total_views" = 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" DROP COLUMN "public_timelines_count"`);
    await q.query(`DROP INDEX "profile_timelines_creator_id_idx"`);
    await q.query(`DROP TABLE "profile_timelines"`);
    await q.query(`DROP INDEX "like_targets_owner_id_idx"`);
    await q.query(`DROP TABLE "like_targets"`);
  }
}
