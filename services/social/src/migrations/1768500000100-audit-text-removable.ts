import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The moderation audit log stays append-only, with the exceptions of an account deleted for good:
 * the entries about it (or made by it, as a moderator) may no longer say who (`moderator_id`,
 * `subject_user_id` set to NULL, migration 1767100000000) and their reason may be replaced by the
 * fixed '(removed with the account)' (accounts/account-deletion.ts); nothing else may change.
 */
export class AuditTextRemovable1768500000100 implements MigrationInterface {
  name = 'AuditTextRemovable1768500000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE OR REPLACE FUNCTION "moderation_actions_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE'
          AND NEW.id = OLD.id AND NEW.action = OLD.action AND NEW.created_at = OLD.created_at
          AND (NEW.reason = OLD.reason OR NEW.reason = '(removed with the account)')
          AND NEW.content_type IS NOT DISTINCT FROM OLD.content_type AND NEW.content_id IS NOT DISTINCT FROM OLD.content_id
          AND NEW.until IS NOT DISTINCT FROM OLD.until
          AND (NEW.moderator_id IS NULL OR NEW.moderator_id = OLD.moderator_id)
          AND (NEW.subject_user_id IS NULL OR NEW.subject_user_id = OLD.subject_user_id) THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'moderation_actions is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE OR REPLACE FUNCTION "moderation_actions_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE'
          AND NEW.id = OLD.id AND NEW.action = OLD.action AND NEW.reason = OLD.reason AND NEW.created_at = OLD.created_at
          AND NEW.content_type IS NOT DISTINCT FROM OLD.content_type AND NEW.content_id IS NOT DISTINCT FROM OLD.content_id
          AND NEW.until IS NOT DISTINCT FROM OLD.until
          AND (NEW.moderator_id IS NULL OR NEW.moderator_id = OLD.moderator_id)
          AND (NEW.subject_user_id IS NULL OR NEW.subject_user_id = OLD.subject_user_id) THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'moderation_actions is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
  }
}
