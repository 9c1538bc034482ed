import type { EntityManager, QueryRunner } from 'typeorm';

/**
 * Erasing a deleted person from the outbox (issue 29 item 7: after an account is purged, no row
 * of any table names the person, the outbox included).
 *
 * The outbox keeps dispatched rows for a day as a transport log (OutboxRelay's
 * `retainDispatchedMs`); the events themselves are in the stream. A row naming the person cannot
 * simply be deleted when a service applies `UserDeleted`: rows not yet sent must still go out (the
 * auth service's own `UserDeleted` among them, and the events the deletion itself causes, such as
 * the counts going down), and some are written or dispatched after that handler's transaction.
 * So applying `UserDeleted` only asks for the erasure ({@link requestOutboxErasure}, a row in
 * `outbox_erasures` written in the handler's transaction), and the relay does it: after each pass
 * that found nothing left to send it deletes the dispatched rows naming someone asked for (by
 * actor, or by the person's id, username or e-mail address as UTF-8 bytes in the protobuf
 * payload, where strings are stored as they are), and drops the request once no row naming them
 * is waiting to be sent. A row written after that (a late event) goes with the second
 * `UserDeleted` an hour later, or at the latest with the day's retention. Every service that
 * publishes events (runs an OutboxRelay) has the table and asks for it; one that publishes
 * nothing (search) has an empty outbox and neither.
 */
export async function createOutboxErasures(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`
    CREATE TABLE "outbox_erasures" (
      "user_id" uuid NOT NULL,
      "names" text[] NOT NULL,
      "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "outbox_erasures_pkey" PRIMARY KEY ("user_id")
    )`);
}

export async function dropOutboxErasures(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`DROP TABLE "outbox_erasures"`);
}

/** Who is to be erased from the outbox: the account's id, and the names events may carry (username, e-mail address). */
export interface OutboxErasure {
  userId: string;
  names?: readonly string[];
}

/**
 * Asks the relay to erase the person from this service's outbox once everything naming them has
 * been sent (see above); call it in the transaction that applies `UserDeleted`.
 */
export async function requestOutboxErasure(manager: EntityManager, erasure: OutboxErasure): Promise<void> {
  const id = erasure.userId.toLowerCase();
  const names = [...new Set([id, ...(erasure.names ?? []).filter((name) => name.length >= 3)])];
  await manager.query(
    `INSERT INTO outbox_erasures (user_id, names) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET names = ARRAY(SELECT DISTINCT unnest(outbox_erasures.names || EXCLUDED.names)), requested_at = now()`,
    [id, names],
  );
}

/** The outbox rows naming the erasure `e` (an alias in scope): by actor, or by a name's bytes in the payload. */
const NAMING = `(o.actor_user_id = e.user_id OR EXISTS (SELECT 1 FROM unnest(e.names) n WHERE position(convert_to(n, 'UTF8') in o.payload) > 0))`;

/**
 * One step of the relay (OutboxRelay, after a pass that found nothing to send): for each person
 * asked for, the dispatched rows naming them go, and the request goes once no undispatched row
 * names them. Answers how many rows went.
 */
export async function eraseDispatched(manager: EntityManager, limit = 20): Promise<number> {
  const asked = (await manager.query('SELECT user_id FROM outbox_erasures ORDER BY requested_at LIMIT $1', [limit])) as Array<{ user_id: string }>;
  let erased = 0;
  for (const { user_id: userId } of asked) {
    await manager.transaction(async (tx) => {
      // One being asked for again right now (a handler's transaction holds it) is done on a later pass.
      const held = (await tx.query('SELECT 1 FROM outbox_erasures WHERE user_id = $1 FOR UPDATE SKIP LOCKED', [userId])) as unknown[];
      if (held.length === 0) return;
      const [, count] = (await tx.query(
        `DELETE FROM outbox o USING outbox_erasures e WHERE e.user_id = $1 AND o.dispatched_at IS NOT NULL AND ${NAMING}`,
        [userId],
      )) as [unknown, number];
      erased += count;
      await tx.query(
        `DELETE FROM outbox_erasures e WHERE e.user_id = $1 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.dispatched_at IS NULL AND ${NAMING})`,
        [userId],
      );
    });
  }
  return erased;
}
