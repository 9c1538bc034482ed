import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Changes of sign-in address waiting for their confirmation from the new address. */
export class EmailChanges1766200000000 implements MigrationInterface {
  name = 'EmailChanges1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "email_changes" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "new_email" character varying(254) NOT NULL, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6626b2af49c359b24442c10bbb1" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "email_changes_token_hash_key" ON "email_changes"  ("token_hash") `);
    await q.query(`CREATE INDEX "email_changes_user_id_idx" ON "email_changes"  ("user_id") `);
    await q.query(`ALTER TABLE "email_changes" ADD CONSTRAINT "FK_38edd6558e3b8386e9297c2636e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "email_changes" DROP CONSTRAINT "FK_38edd6558e3b8386e9297c2636e"`);
    await q.query(`DROP INDEX "email_changes_user_id_idx"`);
    await q.query(`DROP INDEX "email_changes_token_hash_key"`);
    await q.query(`DROP TABLE "email_changes"`);
  }
}
