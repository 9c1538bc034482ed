import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What was deleted (timelines, videos, comments, posts; invitations answered or withdrawn), kept
 * after their rows go: an event that names one is then known to be about something gone (nothing
 * to tell) rather than something not heard of yet (tried again later), an addition overtaken by
 * its deletion tells nobody, and a late snapshot of a deleted timeline does not bring it back.
 */
export class Tombstones1766100000000 implements MigrationInterface {
  name = 'Tombstones1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "tombstones" ("kind" character varying(20) NOT NULL, "id" uuid NOT NULL, "deleted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "tombstones_pkey" PRIMARY KEY ("kind", "id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "tombstones"`);
  }
}
