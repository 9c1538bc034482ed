import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxTables, dropOutboxTables } from '@timeliner/platform';

/** Users, sessions, password resets, rate-limit counters, and the event outbox and inbox. */
export class Initial1763719200000 implements MigrationInterface {
  name = 'Initial1763719200000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTables(q, 'auth');
    await q.query(`CREATE TABLE "rate_limits" ("key" character varying(300) NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "count" integer NOT NULL, CONSTRAINT "PK_8cb6aa4831e3e775ccf370521db" PRIMARY KEY ("key"))`);
    await q.query(`CREATE TABLE "users" ("id" uuid NOT NULL, "username" character varying(30) NOT NULL, "email" character varying(254) NOT NULL, "password_hash" character varying(255) NOT NULL, "display_name" character varying(80) NOT NULL, "bio" character varying(500), "avatar" character varying(2048), "cover_image" character varying(2048), "website" character varying(2048), "location" character varying(100), "is_verified" boolean NOT NULL DEFAULT false, "is_private" boolean NOT NULL DEFAULT false, "followers_count" integer NOT NULL DEFAULT '0', "following_count" integer NOT NULL DEFAULT '0', "timelines_count" integer NOT NULL DEFAULT '0', "total_likes" bigint NOT NULL DEFAULT '0', "total_views" bigint NOT NULL DEFAULT '0', "joined_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_active_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "users_username_key" ON "users"  ("username") `);
    await q.query(`CREATE UNIQUE INDEX "users_email_key" ON "users"  ("email") `);
    await q.query(`CREATE TABLE "password_resets" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4816377aa98211c1de34469e742" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "password_resets_token_hash_key" ON "password_resets"  ("token_hash") `);
    await q.query(`CREATE INDEX "password_resets_user_id_idx" ON "password_resets"  ("user_id") `);
    await q.query(`CREATE TABLE "sessions" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_ip" character varying(64), "user_agent" character varying(300), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3238ef96f18b355b671619111bc" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"  ("token_hash") `);
    await q.query(`CREATE INDEX "sessions_user_id_idx" ON "sessions"  ("user_id") `);
    await q.query(`ALTER TABLE "password_resets" ADD CONSTRAINT "FK_f7a4c3bc48f24df007936d217be" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "sessions" ADD CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTables(q, 'auth');
    await q.query(`DROP TABLE "sessions"`);
    await q.query(`DROP TABLE "password_resets"`);
    await q.query(`DROP TABLE "users"`);
    await q.query(`DROP TABLE "rate_limits"`);
  }
}
