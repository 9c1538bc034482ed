import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Where each person stopped in each timeline ("Resume at 2:14"). */
export class WatchPositions1767300000000 implements MigrationInterface {
  name = 'WatchPositions1767300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "watch_positions" ("user_id" uuid NOT NULL, "timeline_id" uuid NOT NULL, "item_id" uuid NOT NULL, "seconds" double precision NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_watch_positions" PRIMARY KEY ("user_id", "timeline_id"))`);
    await q.query(`ALTER TABLE "watch_positions" ADD CONSTRAINT "FK_7f3e57e168a5bb3021482afab89" FOREIGN KEY ("timeline_id") REFERENCES "timelines"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "watch_positions"`);
  }
}
