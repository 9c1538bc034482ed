import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Requests to follow private accounts, and how many wait for each person (follows/follow-request.entity.ts). */
export class FollowRequests1766500000000 implements MigrationInterface {
  name = 'FollowRequests1766500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "follow_requests" ("requester_id" uuid NOT NULL, "target_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "follow_requests_pkey" PRIMARY KEY ("requester_id", "target_id"))`);
    await q.query(`CREATE INDEX "follow_requests_target_idx" ON "follow_requests" ("target_id", "created_at", "requester_id")`);
    await q.query(`CREATE TABLE "follow_request_counts" ("user_id" uuid NOT NULL, "pending_count" integer NOT NULL DEFAULT 0, "version" bigint NOT NULL DEFAULT 0, CONSTRAINT "follow_request_counts_pkey" PRIMARY KEY ("user_id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "follow_request_counts"`);
    await q.query(`DROP TABLE "follow_requests"`);
  }
}
