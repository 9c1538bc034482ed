import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The moderation desk: staff roles, the append-only audit log (a trigger refuses UPDATE, DELETE
 * and TRUNCATE on it), the moderators' standing decisions on items, account suspensions and
 * appeals.
 */
export class ModerationDesk1766800000000 implements MigrationInterface {
  name = 'ModerationDesk1766800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "moderation_version_seq"`);
    await q.query(`CREATE TABLE "staff_roles" ("user_id" uuid NOT NULL, "role" character varying(20) NOT NULL, "granted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "staff_roles_role_check" CHECK ("role" IN ('moderator', 'admin')), CONSTRAINT "staff_roles_pkey" PRIMARY KEY ("user_id"))`);
    await q.query(`CREATE TABLE "moderation_actions" ("id" uuid NOT NULL, "moderator_id" uuid, "action" character varying(20) NOT NULL, "content_type" character varying(20), "content_id" uuid, "subject_user_id" uuid, "reason" character varying(1000) NOT NULL, "until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "moderation_actions_pkey" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "moderation_actions_created_idx" ON "moderation_actions" ("created_at", "id")`);
    await q.query(`CREATE INDEX "moderation_actions_content_idx" ON "moderation_actions" ("content_type", "content_id", "created_at")`);
    await q.query(`CREATE INDEX "moderation_actions_subject_idx" ON "moderation_actions" ("subject_user_id", "created_at")`);
    await q.query(`CREATE FUNCTION "moderation_actions_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'moderation_actions is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`CREATE TRIGGER "moderation_actions_no_change" BEFORE UPDATE OR DELETE ON "moderation_actions" FOR EACH ROW EXECUTE FUNCTION "moderation_actions_append_only"()`);
    await q.query(`CREATE TRIGGER "moderation_actions_no_truncate" BEFORE TRUNCATE ON "moderation_actions" FOR EACH STATEMENT EXECUTE FUNCTION "moderation_actions_append_only"()`);
    await q.query(`CREATE TABLE "moderated_content" ("content_type" character varying(20) NOT NULL, "content_id" uuid NOT NULL, "author_id" uuid NOT NULL, "hidden" boolean NOT NULL DEFAULT false, "sensitive" boolean NOT NULL DEFAULT false, "action_id" uuid NOT NULL, "version" bigint NOT NULL, CONSTRAINT "moderated_content_pkey" PRIMARY KEY ("content_type", "content_id"))`);
    await q.query(`CREATE TABLE "account_suspensions" ("user_id" uuid NOT NULL, "until" TIMESTAMP WITH TIME ZONE, "reason" character varying(1000) NOT NULL, "action_id" uuid NOT NULL, "version" bigint NOT NULL, CONSTRAINT "account_suspensions_pkey" PRIMARY KEY ("user_id"))`);
    await q.query(`CREATE TABLE "moderation_appeals" ("id" uuid NOT NULL, "action_id" uuid NOT NULL, "author_id" uuid NOT NULL, "content_type" character varying(20), "content_id" uuid, "text" character varying(1000) NOT NULL, "status" character varying(20) NOT NULL DEFAULT 'pending', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "moderation_appeals_pkey" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "moderation_appeals_action_once" ON "moderation_appeals" ("action_id")`);
    await q.query(`CREATE INDEX "moderation_appeals_pending_idx" ON "moderation_appeals" ("status", "created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "moderation_appeals"`);
    await q.query(`DROP TABLE "account_suspensions"`);
    await q.query(`DROP TABLE "moderated_content"`);
    await q.query(`DROP TABLE "moderation_actions"`);
    await q.query(`DROP FUNCTION "moderation_actions_append_only"()`);
    await q.query(`DROP TABLE "staff_roles"`);
    await q.query(`DROP SEQUENCE "moderation_version_seq"`);
  }
}
