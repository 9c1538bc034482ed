import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the moderation desk took out of search (social's ContentModerated and
 * AccountSuspensionChanged): hidden timelines, and suspended accounts with their timelines, each
 * kept at the version of the decision so an older event never undoes a newer one.
 */
export class Moderation1766800000000 implements MigrationInterface {
  name = 'Moderation1766800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "moderation_hidden" ("subject_type" character varying(20) NOT NULL, "subject_id" uuid NOT NULL, "hidden" boolean NOT NULL, "until" TIMESTAMP WITH TIME ZONE, "version" bigint NOT NULL, CONSTRAINT "moderation_hidden_pkey" PRIMARY KEY ("subject_type", "subject_id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "moderation_hidden"`);
  }
}
