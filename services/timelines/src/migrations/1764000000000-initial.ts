import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxTables, dropOutboxTables } from '@timeliner/platform';

/** Timelines, collaborators, invitations, the users read model, analytics, and the event outbox and inbox. */
export class Initial1764000000000 implements MigrationInterface {
  name = 'Initial1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTables(q, 'timelines');
    await q.query(`CREATE TABLE "timelines" ("id" uuid NOT NULL, "title" character varying(200) NOT NULL, "description" character varying(5000), "creator_id" uuid NOT NULL, "creator_name" character varying(100) NOT NULL, "is_public" boolean NOT NULL DEFAULT false, "visibility" character varying(16) NOT NULL DEFAULT 'private', "duration" integer NOT NULL DEFAULT '0', "video_count" integer NOT NULL DEFAULT '0', "views" bigint NOT NULL DEFAULT '0', "likes_count" integer NOT NULL DEFAULT '0', "comments_count" integer NOT NULL DEFAULT '0', "status" character varying(16) NOT NULL DEFAULT 'draft', "is_live" boolean NOT NULL DEFAULT false, "live_viewers" integer NOT NULL DEFAULT '0', "challenge_id" uuid, "category_tag" character varying(50), "last_content_added_at" TIMESTAMP WITH TIME ZONE, "last_comment_at" TIMESTAMP WITH TIME ZONE, "last_like_at" TIMESTAMP WITH TIME ZONE, "last_activity_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "activity_score" double precision NOT NULL DEFAULT '0', "score_band" integer NOT NULL DEFAULT '0', "engagement_score" double precision NOT NULL DEFAULT '0', "trending_score" double precision NOT NULL DEFAULT '0', "content_freshness" character varying(16) NOT NULL DEFAULT 'new', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "timelines_is_public_check" CHECK ("is_public" = ("visibility" = 'public')), CONSTRAINT "timelines_status_check" CHECK ("status" IN ('draft', 'processing', 'published')), CONSTRAINT "timelines_visibility_check" CHECK ("visibility" IN ('private', 'public', 'unlisted')), CONSTRAINT "PK_b7e242fccf271037f4d6a00d9dd" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "timelines_creator_id_idx" ON "timelines"  ("creator_id") `);
    await q.query(`CREATE INDEX "timelines_feed_idx" ON "timelines"  ("score_band", "last_activity_at", "id") WHERE "visibility" = 'public' AND "status" = 'published'`);
    await q.query(`CREATE TABLE "timeline_views" ("id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "viewer_key" character varying(80) NOT NULL, "watch_time" double precision NOT NULL DEFAULT '0', "completion" double precision NOT NULL DEFAULT '0', "region" character varying(32), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_fa5c665e229b78953983077ce56" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "timeline_views_viewer_idx" ON "timeline_views"  ("timeline_id", "viewer_key", "created_at") `);
    await q.query(`CREATE INDEX "timeline_views_timeline_id_created_at_idx" ON "timeline_views"  ("timeline_id", "created_at") `);
    await q.query(`CREATE TABLE "timeline_engagements" ("id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "kind" character varying(16) NOT NULL, "channel" character varying(32), "viewer_key" character varying(80) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "timeline_engagements_kind_check" CHECK ("kind" IN ('share', 'download')), CONSTRAINT "PK_e853d364873ce3f1f5a5f7ca4bc" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "timeline_engagements_timeline_id_idx" ON "timeline_engagements"  ("timeline_id", "kind", "created_at") `);
    await q.query(`CREATE TABLE "collaborators" ("id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "user_id" uuid NOT NULL, "user_name" character varying(100) NOT NULL, "role" character varying(16) NOT NULL DEFAULT 'editor', "status" character varying(16) NOT NULL DEFAULT 'active', "invitation_id" uuid, "joined_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "collaborators_timeline_id_user_id_key" UNIQUE ("timeline_id", "user_id"), CONSTRAINT "collaborators_role_check" CHECK ("role" IN ('owner', 'editor', 'viewer')), CONSTRAINT "PK_f579a5df9d66287f400806ad875" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "collaborators_user_id_idx" ON "collaborators"  ("user_id") `);
    await q.query(`CREATE TABLE "invitations" ("id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "inviter_user_id" uuid NOT NULL, "inviter_name" character varying(100) NOT NULL, "email" character varying(254) NOT NULL, "role" character varying(16) NOT NULL DEFAULT 'editor', "status" character varying(16) NOT NULL DEFAULT 'pending', "invite_token_hash" character(64) NOT NULL, "message" character varying(1000), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, "accepted_by_user_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "invitations_status_check" CHECK ("status" IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')), CONSTRAINT "invitations_role_check" CHECK ("role" IN ('viewer', 'editor')), CONSTRAINT "PK_5dec98cfdfd562e4ad3648bbb07" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "invitations_invite_token_hash_key" ON "invitations"  ("invite_token_hash") `);
    await q.query(`CREATE INDEX "invitations_timeline_id_idx" ON "invitations"  ("timeline_id", "status") `);
    await q.query(`CREATE UNIQUE INDEX "invitations_pending_email_key" ON "invitations"  ("timeline_id", "email") WHERE "status" = 'pending'`);
    await q.query(`CREATE TABLE "users" ("id" uuid NOT NULL, "username" character varying(30) NOT NULL, "display_name" character varying(100) NOT NULL, "email" character varying(254) NOT NULL, "avatar" character varying(2048), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "users_email_idx" ON "users"  ("email") `);
    await q.query(`ALTER TABLE "timeline_views" ADD CONSTRAINT "FK_8c61e13d065b7b48de50faeedff" FOREIGN KEY ("timeline_id") REFERENCES "timelines"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "timeline_engagements" ADD CONSTRAINT "FK_145b1c0e0c056edda1231d84b49" FOREIGN KEY ("timeline_id") REFERENCES "timelines"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "collaborators" ADD CONSTRAINT "FK_c47895fbe9e60e460b3fdbad445" FOREIGN KEY ("timeline_id") REFERENCES "timelines"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "invitations" ADD CONSTRAINT "FK_ca8692b7cae65d19a4800906cfe" FOREIGN KEY ("timeline_id") REFERENCES "timelines"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTables(q, 'timelines');
    await q.query(`DROP TABLE "users"`);
    await q.query(`DROP TABLE "invitations"`);
    await q.query(`DROP TABLE "collaborators"`);
    await q.query(`DROP TABLE "timeline_engagements"`);
    await q.query(`DROP TABLE "timeline_views"`);
    await q.query(`DROP TABLE "timelines"`);
  }
}
