import type { MigrationInterface, QueryRunner } from 'typeorm';

/** When each person was last told of one person's follow or like of the same thing (once a day). */
export class ToldOnceADay1766400000000 implements MigrationInterface {
  name = 'ToldOnceADay1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "told_once_a_day" ("recipient_id" uuid NOT NULL, "actor_id" uuid NOT NULL, "subject" character varying(100) NOT NULL, "told_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_told_once_a_day" PRIMARY KEY ("recipient_id", "actor_id", "subject"))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "told_once_a_day"`);
  }
}
