import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Profile pictures: the current one per person. */
export class Avatars1765100000000 implements MigrationInterface {
  name = 'Avatars1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "avatars" ("user_id" uuid NOT NULL, "version" bigint NOT NULL, "object_key" character varying(200) NOT NULL, "size" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "avatars_pkey" PRIMARY KEY ("user_id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "avatars"`);
  }
}
