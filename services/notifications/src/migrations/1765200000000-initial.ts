import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxTables, dropOutboxTables } from '@timeliner/platform';

/**
 * The read models (people, timelines, videos, like states), notifications with their activities,
 * preferences, Web Push subscriptions, and the event inbox.
 */
export class Initial1765200000000 implements MigrationInterface {
  name = 'Initial1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTables(q, 'notifications');
    await q.query(`CREATE TABLE "videos" ("id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "uploader_id" uuid NOT NULL, "original_name" character varying(255) NOT NULL DEFAULT '', CONSTRAINT "PK_e4c86c0cf95aff16e9fb8220f6b" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "videos_timeline_idx" ON "videos"  ("timeline_id") `);
    await q.query(`CREATE TABLE "notifications" ("id" uuid NOT NULL, "recipient_id" uuid NOT NULL, "kind" character varying(30) NOT NULL, "group_key" character varying(100) NOT NULL, "target_type" character varying(20) NOT NULL, "target_id" uuid NOT NULL, "timeline_id" uuid, "target_title" character varying(255), "link" character varying(300) NOT NULL, "count" integer NOT NULL DEFAULT '0', "read_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6a72c3c0f683f6462415e653c3a" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "notifications_unread_idx" ON "notifications"  ("recipient_id") WHERE "read_at" IS NULL`);
    await q.query(`CREATE INDEX "notifications_target_idx" ON "notifications"  ("target_id") `);
    await q.query(`CREATE INDEX "notifications_timeline_idx" ON "notifications"  ("timeline_id") `);
    await q.query(`CREATE INDEX "notifications_recipient_group_idx" ON "notifications"  ("recipient_id", "group_key", "created_at") `);
    await q.query(`CREATE INDEX "notifications_recipient_updated_idx" ON "notifications"  ("recipient_id", "updated_at", "id") `);
    await q.query(`CREATE TABLE "notification_activities" ("id" uuid NOT NULL, "notification_id" uuid NOT NULL, "recipient_id" uuid NOT NULL, "source_key" character varying(120) NOT NULL, "actor_id" uuid, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_e7d6647c45ffed5bddbe8754572" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "notification_activities_notification_idx" ON "notification_activities"  ("notification_id", "occurred_at") `);
    await q.query(`CREATE UNIQUE INDEX "notification_activities_source_idx" ON "notification_activities"  ("recipient_id", "source_key") `);
    await q.query(`CREATE TABLE "preferences" ("user_id" uuid NOT NULL, "type" character varying(20) NOT NULL, "in_app" boolean NOT NULL, "push" boolean NOT NULL, CONSTRAINT "PK_caaa68ed56d1abcd0b7db18d584" PRIMARY KEY ("user_id", "type"))`);
    await q.query(`CREATE TABLE "push_subscriptions" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "endpoint" character varying(2048) NOT NULL, "p256dh" character varying(100) NOT NULL, "auth" character varying(40) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_757fc8f00c34f66832668dc2e53" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "push_subscriptions_endpoint_idx" ON "push_subscriptions"  ("endpoint") `);
    await q.query(`CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions"  ("user_id") `);
    await q.query(`CREATE TABLE "reaction_states" ("target_key" character varying(60) NOT NULL, "user_id" uuid NOT NULL, "version" bigint NOT NULL, "active" boolean NOT NULL, CONSTRAINT "PK_7b59b3bd360b5d033085b6734ca" PRIMARY KEY ("target_key", "user_id"))`);
    await q.query(`CREATE TABLE "timelines" ("id" uuid NOT NULL, "owner_id" uuid NOT NULL, "title" character varying(200) NOT NULL DEFAULT '', "visibility" character varying(10) NOT NULL DEFAULT 'private', "revision" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_b7e242fccf271037f4d6a00d9dd" PRIMARY KEY ("id"))`);
    await q.query(`CREATE TABLE "timeline_members" ("timeline_id" uuid NOT NULL, "user_id" uuid NOT NULL, CONSTRAINT "PK_1116a1e1d63e20fee744d248a1e" PRIMARY KEY ("timeline_id", "user_id"))`);
    await q.query(`CREATE INDEX "timeline_members_user_idx" ON "timeline_members"  ("user_id") `);
    await q.query(`CREATE TABLE "users" ("id" uuid NOT NULL, "username" character varying(30) NOT NULL, "display_name" character varying(100) NOT NULL, "avatar" character varying(2048), "email" character varying(320), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "users_email_idx" ON "users"  ("email") `);
    await q.query(`CREATE INDEX "users_username_idx" ON "users"  ("username") `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "notification_activities"`);
    await q.query(`DROP TABLE "notifications"`);
    await q.query(`DROP TABLE "push_subscriptions"`);
    await q.query(`DROP TABLE "preferences"`);
    await q.query(`DROP TABLE "reaction_states"`);
    await q.query(`DROP TABLE "videos"`);
    await q.query(`DROP TABLE "timeline_members"`);
    await q.query(`DROP TABLE "timelines"`);
    await q.query(`DROP TABLE "users"`);
    await dropOutboxTables(q, 'notifications');
  }
}
