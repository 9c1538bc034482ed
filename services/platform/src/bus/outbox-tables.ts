import type { QueryRunner } from 'typeorm';

/**
 * DDL for the outbox and inbox tables, for a service's first migration:
 *
 *   public async up(queryRunner: QueryRunner) { await createOutboxTables(queryRunner, 'media'); ... }
 *
 * It matches the OutboxEvent and InboxEntry entities exactly, so a migration-drift check
 * (generate a migration, expect it empty) stays quiet.
 */
export async function createOutboxTables(queryRunner: QueryRunner, schema: string): Promise<void> {
  const s = quoteIdentifier(schema);
  await queryRunner.query(`
    CREATE TABLE ${s}."outbox" (
      "id" uuid NOT NULL,
      "position" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
      "subject" text NOT NULL,
      "type" text NOT NULL,
      "version" integer NOT NULL,
      "payload" bytea NOT NULL,
      "actor_user_id" uuid,
      "request_id" text,
      "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "dispatched_at" TIMESTAMP WITH TIME ZONE,
      "attempts" integer NOT NULL DEFAULT '0',
      CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
    )`);
  // The relay only ever reads undispatched rows; this keeps that read cheap however long the
  // table grows.
  await queryRunner.query(
    `CREATE INDEX "outbox_undispatched_idx" ON ${s}."outbox" ("position") WHERE "dispatched_at" IS NULL`,
  );
  await queryRunner.query(`
    CREATE TABLE ${s}."inbox" (
      "consumer" text NOT NULL,
      "event_id" uuid NOT NULL,
      "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "inbox_pkey" PRIMARY KEY ("consumer", "event_id")
    )`);
}

export async function dropOutboxTables(queryRunner: QueryRunner, schema: string): Promise<void> {
  const s = quoteIdentifier(schema);
  await queryRunner.query(`DROP TABLE ${s}."inbox"`);
  await queryRunner.query(`DROP TABLE ${s}."outbox"`);
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
