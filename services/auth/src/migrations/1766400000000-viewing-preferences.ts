import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each person's viewing preferences (always show sensitive media). */
export class ViewingPreferences1766400000000 implements MigrationInterface {
  name = 'ViewingPreferences1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "viewing_preferences" ("user_id" uuid NOT NULL, "always_show_sensitive" boolean NOT NULL DEFAULT false, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_viewing_preferences" PRIMARY KEY ("user_id"))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "viewing_preferences"`);
  }
}
