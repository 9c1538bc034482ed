import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Blocks, muted accounts and muted words, and the sequence their events are versioned by. */
export class BlocksMutes1766600000000 implements MigrationInterface {
  name = 'BlocksMutes1766600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "blocks" ("blocker_id" uuid NOT NULL, "blocked_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_blocks" PRIMARY KEY ("blocker_id", "blocked_id"))`);
    await q.query(`CREATE INDEX "blocks_blocked_idx" ON "blocks" ("blocked_id", "blocker_id")`);
    await q.query(`CREATE INDEX "blocks_list_idx" ON "blocks" ("blocker_id", "created_at", "blocked_id")`);
    await q.query(`CREATE TABLE "mutes" ("muter_id" uuid NOT NULL, "muted_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_mutes" PRIMARY KEY ("muter_id", "muted_id"))`);
    await q.query(`CREATE INDEX "mutes_list_idx" ON "mutes" ("muter_id", "created_at", "muted_id")`);
    await q.query(`CREATE TABLE "muted_words" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "word" character varying(100) NOT NULL, "pattern" character varying(600) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_muted_words" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "muted_words_user_word_key" ON "muted_words" ("user_id", "word")`);
    await q.query(`CREATE SEQUENCE IF NOT EXISTS person_filter_version_seq`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SEQUENCE IF EXISTS person_filter_version_seq`);
    await q.query(`DROP TABLE "muted_words"`);
    await q.query(`DROP TABLE "mutes"`);
    await q.query(`DROP TABLE "blocks"`);
  }
}
