import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxTables, dropOutboxTables } from '@timeliner/platform';

/** Timeline comments, the users read model, and the event outbox and inbox. */
export class Initial1763805600000 implements MigrationInterface {
  name = 'Initial1763805600000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTables(q, 'social');
    await q.query(`CREATE TABLE "users" ("id" uuid NOT NULL, "username" character varying(30) NOT NULL, "display_name" character varying(100) NOT NULL, "avatar" character varying(2048), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
    await q.query(`CREATE TABLE "timeline_comments" ("id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "user_id" uuid NOT NULL, "user_name" character varying(100) NOT NULL DEFAULT '', "content" character varying(2000) NOT NULL, "timestamp" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5bd597a016bafebd9de2c9b669c" PRIMARY KEY ("id"))`);
    // Descending to match the one read: a timeline's comments, newest first.
    await q.query(`CREATE INDEX "timeline_comments_timeline_created_idx" ON "timeline_comments" ("timeline_id", "created_at" DESC, "id" DESC)`);
    await q.query(`CREATE INDEX "timeline_comments_user_idx" ON "timeline_comments" ("user_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "timeline_comments"`);
    await q.query(`DROP TABLE "users"`);
    await dropOutboxTables(q, 'social');
  }
}
