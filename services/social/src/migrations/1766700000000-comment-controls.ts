import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Comment controls: each item's settings (who may comment, which comments wait for approval),
 * held and pinned comments, and when each account registered (for holding new accounts' comments).
 */
export class CommentControls1766700000000 implements MigrationInterface {
  name = 'CommentControls1766700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "comment_settings" ("target_type" character varying(16) NOT NULL, "target_id" uuid NOT NULL, "who_may_comment" character varying(16) NOT NULL DEFAULT 'everyone', "hold_all" boolean NOT NULL DEFAULT false, "held_words" text array NOT NULL DEFAULT '{}', "hold_new_accounts_days" integer, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_464c4f7b47300d504099ff01f07" PRIMARY KEY ("target_type", "target_id"))`,
    );
    for (const table of ['post_comments', 'timeline_comments', 'video_comments']) {
      await q.query(`ALTER TABLE "${table}" ADD "held" boolean NOT NULL DEFAULT false`);
      await q.query(`ALTER TABLE "${table}" ADD "pinned_at" TIMESTAMP WITH TIME ZONE`);
    }
    await q.query(`ALTER TABLE "users" ADD "registered_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`CREATE UNIQUE INDEX "post_comments_pinned_idx" ON "post_comments" ("post_id") WHERE "pinned_at" IS NOT NULL`);
    await q.query(`CREATE INDEX "post_comments_held_idx" ON "post_comments" ("post_id", "created_at") WHERE held`);
    await q.query(`CREATE UNIQUE INDEX "timeline_comments_pinned_idx" ON "timeline_comments" ("timeline_id") WHERE "pinned_at" IS NOT NULL`);
    await q.query(`CREATE INDEX "timeline_comments_held_idx" ON "timeline_comments" ("timeline_id", "created_at") WHERE held`);
    await q.query(`CREATE UNIQUE INDEX "video_comments_pinned_idx" ON "video_comments" ("video_id") WHERE "pinned_at" IS NOT NULL`);
    await q.query(`CREATE INDEX "video_comments_held_idx" ON "video_comments" ("timeline_id", "created_at") WHERE held`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of ['video_comments_held_idx', 'video_comments_pinned_idx', 'timeline_comments_held_idx', 'timeline_comments_pinned_idx', 'post_comments_held_idx', 'post_comments_pinned_idx']) {
      await q.query(`DROP INDEX "${index}"`);
    }
    await q.query(`ALTER TABLE "users" DROP COLUMN "registered_at"`);
    for (const table of ['video_comments', 'timeline_comments', 'post_comments']) {
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "pinned_at"`);
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "held"`);
    }
    await q.query(`DROP TABLE "comment_settings"`);
  }
}
