import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Two-step sign-in: the authenticator app's secret, recovery codes, sign-ins waiting for their code, passkeys and their challenges. */
export class TwoStep1766900000000 implements MigrationInterface {
  name = 'TwoStep1766900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "passkeys" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "credential_id" character varying(1400) NOT NULL, "public_key" bytea NOT NULL, "counter" bigint NOT NULL DEFAULT '0', "transports" character varying(200) NOT NULL DEFAULT '', "name" character varying(60) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_db928e6fd79e7098911268a74c3" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "passkeys_credential_id_key" ON "passkeys"  ("credential_id") `);
    await q.query(`CREATE INDEX "passkeys_user_id_idx" ON "passkeys"  ("user_id") `);
    await q.query(`CREATE TABLE "webauthn_challenges" ("id" uuid NOT NULL, "user_id" uuid, "purpose" character varying(20) NOT NULL, "challenge" character varying(128) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e2946be78aa4435a952618a944d" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "webauthn_challenges_expires_at_idx" ON "webauthn_challenges"  ("expires_at") `);
    await q.query(`CREATE TABLE "totp_factors" ("user_id" uuid NOT NULL, "secret" character varying(200) NOT NULL, "confirmed_at" TIMESTAMP WITH TIME ZONE, "last_step" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_eded11141800ddff9dfbd017fd2" PRIMARY KEY ("user_id"))`);
    await q.query(`CREATE TABLE "recovery_codes" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "salt" character(32) NOT NULL, "code_hash" character(64) NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0723b9e53961e799027d7f7ba32" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "recovery_codes_user_id_idx" ON "recovery_codes"  ("user_id") `);
    await q.query(`CREATE TABLE "pending_sign_ins" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ac326856f2f65059c747395e5a3" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "pending_sign_ins_token_hash_key" ON "pending_sign_ins"  ("token_hash") `);
    await q.query(`CREATE INDEX "pending_sign_ins_user_id_idx" ON "pending_sign_ins"  ("user_id") `);
    await q.query(`ALTER TABLE "passkeys" ADD CONSTRAINT "FK_02227b9a8a34a808e3e23800b00" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "webauthn_challenges" ADD CONSTRAINT "FK_0dcc679b1d27e0a3927a37798a9" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "totp_factors" ADD CONSTRAINT "FK_eded11141800ddff9dfbd017fd2" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "recovery_codes" ADD CONSTRAINT "FK_fb82b2ac740ca095b617afad031" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "pending_sign_ins" ADD CONSTRAINT "FK_1e6caeba83d32430b911c244add" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "pending_sign_ins" DROP CONSTRAINT "FK_1e6caeba83d32430b911c244add"`);
    await q.query(`ALTER TABLE "recovery_codes" DROP CONSTRAINT "FK_fb82b2ac740ca095b617afad031"`);
    await q.query(`ALTER TABLE "totp_factors" DROP CONSTRAINT "FK_eded11141800ddff9dfbd017fd2"`);
    await q.query(`ALTER TABLE "webauthn_challenges" DROP CONSTRAINT "FK_0dcc679b1d27e0a3927a37798a9"`);
    await q.query(`ALTER TABLE "passkeys" DROP CONSTRAINT "FK_02227b9a8a34a808e3e23800b00"`);
    await q.query(`DROP INDEX "pending_sign_ins_user_id_idx"`);
    await q.query(`DROP INDEX "pending_sign_ins_token_hash_key"`);
    await q.query(`DROP TABLE "pending_sign_ins"`);
    await q.query(`DROP INDEX "recovery_codes_user_id_idx"`);
    await q.query(`DROP TABLE "recovery_codes"`);
    await q.query(`DROP TABLE "totp_factors"`);
    await q.query(`DROP INDEX "webauthn_challenges_expires_at_idx"`);
    await q.query(`DROP TABLE "webauthn_challenges"`);
    await q.query(`DROP INDEX "passkeys_user_id_idx"`);
    await q.query(`DROP INDEX "passkeys_credential_id_key"`);
    await q.query(`DROP TABLE "passkeys"`);
  }
}
