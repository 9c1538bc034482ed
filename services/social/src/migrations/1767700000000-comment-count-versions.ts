import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each timeline's comment count (shown comments: held ones apart) with its version, as the comment
 * events carry them: a copy of the count (the timelines service's) takes only a newer one, and a
 * rebuild can replay it. Filled from the comments there are.
 */
export class CommentCountVersions1767700000000 implements MigrationInterface {
  name = 'CommentCountVersions1767700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timeline_reactions" ADD "comments_count" integer NOT NULL DEFAULT '0'`);
    await q.query(`ALTER TABLE "timeline_reactions" ADD "comments_version" bigint NOT NULL DEFAULT '0'`);
    await q.query(
      `INSERT INTO "timeline_reactions" ("timeline_id", "comments_count", "comments_version")
       SELECT "timeline_id", count(*), nextval('count_version_seq') FROM "timeline_comments" WHERE NOT "held" GROUP BY "timeline_id"
       ON CONFLICT ("timeline_id") DO UPDATE SET "comments_count" = EXCLUDED."comments_count", "comments_version" = EXCLUDED."comments_version"`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "timeline_reactions" DROP COLUMN "comments_version"`);
    await q.query(`ALTER TABLE "timeline_reactions" DROP COLUMN "comments_count"`);
  }
}
