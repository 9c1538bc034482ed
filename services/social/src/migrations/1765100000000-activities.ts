import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Activity (spec 001 section 3) and private accounts.
 *
 * activities: what people did, newest first per person; source_event_id is the id of the event
 * that recorded it (unique: an event applied twice records once). The rows this service can
 * already derive are filled in: every known timeline's creation, and the likes, bookmarks,
 * timeline comments and follows standing now, each under a made-up source id derived from what
 * it records (never an event's id), dated when it happened.
 *
 * users.is_private: false for everyone until the auth service's events carry the flag.
 */
export class Activities1765100000000 implements MigrationInterface {
  name = 'Activities1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "activities" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "activity_type" character varying(32) NOT NULL, "target_type" character varying(16) NOT NULL, "target_id" uuid NOT NULL, "timeline_id" uuid, "metadata" jsonb NOT NULL DEFAULT '{}', "source_event_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7f4004429f731ffb9c88eb486a8" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "activities_source_event_idx" ON "activities" ("source_event_id")`);
    await q.query(`CREATE INDEX "activities_target_user_idx" ON "activities" ("target_id", "user_id")`);
    await q.query(`CREATE INDEX "activities_user_created_idx" ON "activities" ("user_id", "created_at", "id")`);
    await q.query(`ALTER TABLE "users" ADD "is_private" boolean NOT NULL DEFAULT false`);

    const insert = `INSERT INTO activities (id, user_id, activity_type, target_type, target_id, timeline_id, metadata, source_event_id, created_at)`;
    await q.query(`${insert}
      SELECT gen_random_uuid(), t.creator_id, 'created_timeline', 'timeline', t.id, t.id, jsonb_build_object('timelineTitle', t.title), md5('created_timeline:' || t.id)::uuid, t.created_at
        FROM feed_timelines t`);
    for (const [table, type] of [['timeline_likes', 'liked_timeline'], ['timeline_bookmarks', 'bookmarked_timeline']] as const) {
      await q.query(`${insert}
        SELECT gen_random_uuid(), r.user_id, '${type}', 'timeline', r.timeline_id, r.timeline_id, jsonb_strip_nulls(jsonb_build_object('timelineTitle', t.title)),
               md5('${type}:' || r.user_id || ':' || r.timeline_id)::uuid, r.created_at
          FROM ${table} r LEFT JOIN feed_timelines t ON t.id = r.timeline_id`);
    }
    await q.query(`${insert}
      SELECT gen_random_uuid(), c.user_id, 'commented_timeline', 'timeline', c.timeline_id, c.timeline_id, jsonb_strip_nulls(jsonb_build_object('timelineTitle', t.title)),
             md5('commented_timeline:' || c.id)::uuid, c.created_at
        FROM timeline_comments c LEFT JOIN feed_timelines t ON t.id = c.timeline_id`);
    await q.query(`${insert}
      SELECT gen_random_uuid(), f.follower_id, 'followed_user', 'user', f.following_id, NULL, jsonb_strip_nulls(jsonb_build_object('followedUsername', u.username)),
             md5('followed_user:' || f.follower_id || ':' || f.following_id)::uuid, f.created_at
        FROM follows f LEFT JOIN users u ON u.id = f.following_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" DROP COLUMN "is_private"`);
    await q.query(`DROP TABLE "activities"`);
  }
}
