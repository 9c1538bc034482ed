import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Collections (spec 001): a person's named, ordered lists of timelines, public or private, with
 * the count of timelines each holds.
 */
export class Collections1764900000000 implements MigrationInterface {
  name = 'Collections1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "collections" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "name" character varying(100) NOT NULL, "description" character varying(500), "is_public" boolean NOT NULL DEFAULT true, "timelines_count" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_21c00b1ebbd41ba1354242c5c4e" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "collections_user_created_idx" ON "collections" ("user_id", "created_at", "id")`);
    await q.query(`CREATE TABLE "collection_timelines" ("collection_id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "position" integer NOT NULL, "added_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a5661917c4dbfa3ffa6641dfc9a" PRIMARY KEY ("collection_id", "timeline_id"))`);
    await q.query(`CREATE INDEX "collection_timelines_position_idx" ON "collection_timelines" ("collection_id", "position")`);
    await q.query(`CREATE INDEX "collection_timelines_timeline_idx" ON "collection_timelines" ("timeline_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "collection_timelines"`);
    await q.query(`DROP TABLE "collections"`);
  }
}
