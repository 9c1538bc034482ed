import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The following tab's inbox (feed-index/following-inbox.ts): one row per person and item their
 * following tab shows, filled here from the posts, timelines and follows standing now (the rule
 * of expectedInboxSql there, frozen as it was).
 */
export class FollowingInbox1765200000000 implements MigrationInterface {
  name = 'FollowingInbox1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "feed_inbox" ("owner_id" uuid NOT NULL, "item_id" uuid NOT NULL, "item_type" character varying(16) NOT NULL, "author_id" uuid NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_feed_inbox" PRIMARY KEY ("owner_id", "item_id"))`);
    await q.query(`INSERT INTO feed_inbox (owner_id, item_type, item_id, author_id, at)
      SELECT p.user_id, 'post', p.id, p.user_id, p.created_at FROM posts p
      UNION ALL
      SELECT f.follower_id, 'post', p.id, p.user_id, p.created_at FROM follows f JOIN posts p ON p.user_id = f.following_id
      UNION ALL
      SELECT t.creator_id, 'timeline', t.id, t.creator_id, t.created_at FROM feed_timelines t WHERE t.status = 'published'
      UNION ALL
      SELECT f.follower_id, 'timeline', t.id, t.creator_id, t.created_at FROM follows f JOIN feed_timelines t ON t.creator_id = f.following_id
       WHERE t.status = 'published' AND t.visibility = 'public'
      ON CONFLICT DO NOTHING`);
    await q.query(`CREATE INDEX "feed_inbox_page_idx" ON "feed_inbox" ("owner_id", "at", "item_id")`);
    await q.query(`CREATE INDEX "feed_inbox_author_idx" ON "feed_inbox" ("author_id", "owner_id")`);
    await q.query(`CREATE INDEX "feed_inbox_item_idx" ON "feed_inbox" ("item_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "feed_inbox"`);
  }
}
