import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The social core: posts with their likes, bookmarks and comments; likes and bookmarks of
 * timelines; videos with their likes and comments; follows; reports; and the feed's read model of
 * timelines. Counters carry versions from one sequence, so every event that reports a count can
 * be ordered by consumers.
 */
export class SocialCore1764400000000 implements MigrationInterface {
  name = 'SocialCore1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "count_version_seq"`);
    await q.query(`CREATE TABLE "feed_timelines" ("id" uuid NOT NULL, "creator_id" uuid NOT NULL, "creator_name" character varying(100) NOT NULL DEFAULT '', "title" character varying(200) NOT NULL, "description" character varying(5000) NOT NULL DEFAULT '', "visibility" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "video_count" integer NOT NULL DEFAULT '0', "duration" integer NOT NULL DEFAULT '0', "views" bigint NOT NULL DEFAULT '0', "likes_count" integer NOT NULL DEFAULT '0', "comments_count" integer NOT NULL DEFAULT '0', "activity_score" double precision NOT NULL DEFAULT '0', "score_band" integer NOT NULL DEFAULT '0', "last_activity_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "cover_media_id" uuid, "revision" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_9d0c112c00f194757152a81e121" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "feed_timelines_creator_idx" ON "feed_timelines" ("creator_id", "created_at", "id")`);
    await q.query(`CREATE TABLE "deleted_timelines" ("id" uuid NOT NULL, "deleted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dc36bd366988fb2674a2803af45" PRIMARY KEY ("id"))`);
    await q.query(`CREATE TABLE "follows" ("follower_id" uuid NOT NULL, "following_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8109e59f691f0444b43420f6987" PRIMARY KEY ("follower_id", "following_id"))`);
    await q.query(`CREATE INDEX "follows_follower_created_idx" ON "follows" ("follower_id", "created_at", "following_id")`);
    await q.query(`CREATE INDEX "follows_following_idx" ON "follows" ("following_id", "created_at", "follower_id")`);
    await q.query(`CREATE TABLE "follow_counts" ("user_id" uuid NOT NULL, "followers_count" integer NOT NULL DEFAULT '0', "following_count" integer NOT NULL DEFAULT '0', "followers_version" bigint NOT NULL DEFAULT '0', "following_version" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_7b594bf8e86d6c6742a64b4d5b2" PRIMARY KEY ("user_id"))`);
    await q.query(`CREATE TABLE "post_comments" ("id" uuid NOT NULL, "post_id" uuid NOT NULL, "user_id" uuid NOT NULL, "user_name" character varying(100) NOT NULL DEFAULT '', "content" character varying(2000) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2e99e04b4a1b31de6f833c18ced" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "post_comments_user_idx" ON "post_comments" ("user_id")`);
    await q.query(`CREATE INDEX "post_comments_post_created_idx" ON "post_comments" ("post_id", "created_at", "id")`);
    await q.query(`CREATE TABLE "posts" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "content" character varying(5000) NOT NULL, "hashtags" text array NOT NULL DEFAULT '{}', "mentions" text array NOT NULL DEFAULT '{}', "likes_count" integer NOT NULL DEFAULT '0', "comments_count" integer NOT NULL DEFAULT '0', "bookmarks_count" integer NOT NULL DEFAULT '0', "count_version" bigint NOT NULL DEFAULT '0', "activity_score" double precision NOT NULL DEFAULT '0', "score_band" integer NOT NULL DEFAULT '0', "last_activity_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2829ac61eff60fcec60d7274b9e" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "posts_created_idx" ON "posts" ("created_at", "id")`);
    await q.query(`CREATE INDEX "posts_user_created_idx" ON "posts" ("user_id", "created_at", "id")`);
    await q.query(`CREATE INDEX "posts_feed_idx" ON "posts" ("score_band", "last_activity_at", "id")`);
    await q.query(`CREATE TABLE "post_likes" ("post_id" uuid NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8f64693922a9e8c4e2605850d0b" PRIMARY KEY ("post_id", "user_id"))`);
    await q.query(`CREATE INDEX "post_likes_user_idx" ON "post_likes" ("user_id", "created_at")`);
    await q.query(`CREATE TABLE "post_bookmarks" ("post_id" uuid NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7443b22b6a79717f9bbf9cc39d0" PRIMARY KEY ("post_id", "user_id"))`);
    await q.query(`CREATE INDEX "post_bookmarks_user_idx" ON "post_bookmarks" ("user_id", "created_at")`);
    await q.query(`CREATE TABLE "content_reports" ("id" uuid NOT NULL, "reporter_id" uuid NOT NULL, "content_type" character varying(20) NOT NULL, "content_id" uuid NOT NULL, "reason" character varying(30) NOT NULL, "description" character varying(1000), "status" character varying(20) NOT NULL DEFAULT 'pending', "moderator_id" uuid, "moderator_notes" text, "resolved_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "content_reports_once_per_reporter" UNIQUE ("reporter_id", "content_type", "content_id"), CONSTRAINT "content_reports_type_check" CHECK ("content_type" IN ('post', 'timeline', 'video_comment', 'post_comment', 'timeline_comment')), CONSTRAINT "PK_6c59a68146cdde8de564ee649c1" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "content_reports_status_idx" ON "content_reports" ("status", "created_at")`);
    await q.query(`CREATE TABLE "timeline_likes" ("timeline_id" uuid NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1acf33fe51ca7b9528cae8d57ab" PRIMARY KEY ("timeline_id", "user_id"))`);
    await q.query(`CREATE INDEX "timeline_likes_user_idx" ON "timeline_likes" ("user_id", "created_at")`);
    await q.query(`CREATE TABLE "timeline_bookmarks" ("timeline_id" uuid NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_33a02ba621c4a2a616fe018dd16" PRIMARY KEY ("timeline_id", "user_id"))`);
    await q.query(`CREATE INDEX "timeline_bookmarks_user_idx" ON "timeline_bookmarks" ("user_id", "created_at")`);
    await q.query(`CREATE TABLE "timeline_reactions" ("timeline_id" uuid NOT NULL, "likes_count" integer NOT NULL DEFAULT '0', "bookmarks_count" integer NOT NULL DEFAULT '0', "count_version" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_c43ce537c5d764774552935e73d" PRIMARY KEY ("timeline_id"))`);
    await q.query(`CREATE TABLE "video_comments" ("id" uuid NOT NULL, "video_id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "user_id" uuid NOT NULL, "user_name" character varying(100) NOT NULL DEFAULT '', "content" character varying(2000) NOT NULL, "parent_id" uuid, "replies_count" integer NOT NULL DEFAULT '0', "likes_count" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_bfe25ab13a4b2e47a3da9b3302a" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "video_comments_user_idx" ON "video_comments" ("user_id")`);
    await q.query(`CREATE INDEX "video_comments_parent_idx" ON "video_comments" ("parent_id")`);
    await q.query(`CREATE INDEX "video_comments_thread_idx" ON "video_comments" ("video_id", "parent_id", "created_at", "id")`);
    await q.query(`CREATE TABLE "videos" ("id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "likes_count" integer NOT NULL DEFAULT '0', "comments_count" integer NOT NULL DEFAULT '0', "count_version" bigint NOT NULL DEFAULT '0', "deleted" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_e4c86c0cf95aff16e9fb8220f6b" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "videos_timeline_idx" ON "videos" ("timeline_id")`);
    await q.query(`CREATE TABLE "video_likes" ("video_id" uuid NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9e36f1e09b5e1a77b52262a5c8a" PRIMARY KEY ("video_id", "user_id"))`);
    await q.query(`CREATE INDEX "video_likes_user_idx" ON "video_likes" ("user_id", "created_at")`);
    // The for-you feed reads public published timelines by (band, activity, id), newest first.
    await q.query(`CREATE INDEX "feed_timelines_feed_idx" ON "feed_timelines" ("score_band" DESC, "last_activity_at" DESC, "id" DESC) WHERE "visibility" = 'public' AND "status" = 'published'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "video_likes"`);
    await q.query(`DROP TABLE "videos"`);
    await q.query(`DROP TABLE "video_comments"`);
    await q.query(`DROP TABLE "timeline_reactions"`);
    await q.query(`DROP TABLE "timeline_bookmarks"`);
    await q.query(`DROP TABLE "timeline_likes"`);
    await q.query(`DROP TABLE "content_reports"`);
    await q.query(`DROP TABLE "post_bookmarks"`);
    await q.query(`DROP TABLE "post_likes"`);
    await q.query(`DROP TABLE "posts"`);
    await q.query(`DROP TABLE "post_comments"`);
    await q.query(`DROP TABLE "follow_counts"`);
    await q.query(`DROP TABLE "follows"`);
    await q.query(`DROP TABLE "deleted_timelines"`);
    await q.query(`DROP TABLE "feed_timelines"`);
    await q.query(`DROP SEQUENCE "count_version_seq"`);
  }
}
