import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The for-you feed pages through items in a fixed order for the whole read: each item's sort key
 * (band, last activity) as of the moment the first page was read. Every change of a key keeps the
 * key it replaced in feed_key_history, and each item carries when its key last changed.
 */
export class FeedKeys1764600000000 implements MigrationInterface {
  name = 'FeedKeys1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "posts" ADD "key_changed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`);
    await q.query(`ALTER TABLE "feed_timelines" ADD "key_changed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`);
    await q.query(`CREATE INDEX "posts_key_changed_idx" ON "posts" ("key_changed_at")`);
    await q.query(`CREATE INDEX "feed_timelines_key_changed_idx" ON "feed_timelines" ("key_changed_at")`);
    await q.query(`CREATE TABLE "feed_key_history" ("seq" BIGSERIAL NOT NULL, "item_type" character varying(16) NOT NULL, "item_id" uuid NOT NULL, "score_band" integer NOT NULL, "last_activity_at" TIMESTAMP WITH TIME ZONE NOT NULL, "replaced_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_feed_key_history" PRIMARY KEY ("seq"))`);
    await q.query(`CREATE INDEX "feed_key_history_item_idx" ON "feed_key_history" ("item_type", "item_id", "replaced_at")`);
    await q.query(`CREATE INDEX "feed_key_history_replaced_idx" ON "feed_key_history" ("replaced_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "feed_key_history"`);
    await q.query(`DROP INDEX "feed_timelines_key_changed_idx"`);
    await q.query(`DROP INDEX "posts_key_changed_idx"`);
    await q.query(`ALTER TABLE "feed_timelines" DROP COLUMN "key_changed_at"`);
    await q.query(`ALTER TABLE "posts" DROP COLUMN "key_changed_at"`);
  }
}
