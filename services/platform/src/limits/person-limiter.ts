import type { EntityManager, QueryRunner } from 'typeorm';
import { TooManyRequestsException } from '../http/errors.js';
import { PersonLimitHit } from './person-limit-hit.entity.js';

/** At most `max` actions in any `windowSeconds`. */
export interface PersonLimit {
  max: number;
  windowSeconds: number;
}

/** Entities a service that counts with a PersonLimiter adds to its own. */
export const personLimitEntities = [PersonLimitHit];

/** DDL for `person_limit_hits`, matching PersonLimitHit, for the migration of a service that counts. */
export async function createPersonLimitTable(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`
    CREATE TABLE "person_limit_hits" (
      "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
      "user_id" uuid NOT NULL,
      "action" character varying(40) NOT NULL,
      "at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "person_limit_hits_pkey" PRIMARY KEY ("id")
    )`);
  await queryRunner.query(`CREATE INDEX "person_limit_hits_lookup_idx" ON "person_limit_hits" ("user_id", "action", "at")`);
}

export async function dropPersonLimitTable(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`DROP TABLE "person_limit_hits"`);
}

/** "an hour", "a day", "5 minutes": how a window reads in a message. */
export function describeWindow(seconds: number): string {
  if (seconds === 3_600) return 'an hour';
  if (seconds === 86_400) return 'a day';
  if (seconds % 86_400 === 0) return `${seconds / 86_400} days`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'a minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/** "in 12 minutes", "in 3 hours": a Retry-After as a sentence ends. */
export function describeWait(seconds: number): string {
  if (seconds < 90) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  if (seconds < 90 * 60) return `in ${Math.ceil(seconds / 60)} minutes`;
  return `in ${Math.ceil(seconds / 3_600)} hours`;
}

/**
 * Per-person limits on an action that costs something outside the request (an e-mail to anyone,
 * minutes of a worker): every window of `limits` at once, counted in Postgres so every replica
 * shares the count, and inside the caller's transaction, so an action that fails afterwards (the
 * transaction rolls back) is not counted. Two requests of one person are decided one after the
 * other (an advisory lock until the transaction ends), so none slips past a limit.
 *
 * A refusal is TooManyRequestsException: 429, the message, Retry-After for when the oldest counted
 * action that keeps the limit full leaves its window.
 */
export class PersonLimiter {
  private readonly longestSeconds: number;

  constructor(
    private readonly action: string,
    private readonly limits: readonly PersonLimit[],
    /** The refusal's sentence, e.g. `You can send 20 invitation e-mails an hour; try again in 12 minutes`. */
    private readonly refusal: (limit: PersonLimit, retryAfterSeconds: number) => string,
  ) {
    if (action.length > 40) throw new Error(`PersonLimiter action ${action} is longer than 40 characters`);
    this.longestSeconds = Math.max(0, ...limits.map((l) => l.windowSeconds));
  }

  /** Counts one action of `userId` in `manager`'s transaction, or throws 429 when a limit is reached. */
  async take(manager: EntityManager, userId: string, now = new Date()): Promise<void> {
    if (!manager.queryRunner?.isTransactionActive) throw new Error('PersonLimiter.take must run inside a transaction');
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`person-limit:${this.action}:${userId}`]);
    await this.check(manager, userId, now);
    await manager.query('DELETE FROM person_limit_hits WHERE user_id = $1 AND action = $2 AND at <= $3', [userId, this.action, new Date(now.getTime() - this.longestSeconds * 1000)]);
    await manager.insert(PersonLimitHit, { userId, action: this.action, at: now });
  }

  /** Throws 429 when `userId` may not act now; counts nothing. */
  async check(manager: EntityManager, userId: string, now = new Date()): Promise<void> {
    for (const limit of this.limits) {
      // The max-th newest action in the window: while it is there, the window is full.
      const [full] = (await manager.query(
        `SELECT at FROM person_limit_hits WHERE user_id = $1 AND action = $2 AND at > $3 ORDER BY at DESC OFFSET $4 LIMIT 1`,
        [userId, this.action, new Date(now.getTime() - limit.windowSeconds * 1000), limit.max - 1],
      )) as Array<{ at: Date }>;
      if (full) {
        const retryAfter = Math.max(1, Math.ceil((full.at.getTime() + limit.windowSeconds * 1000 - now.getTime()) / 1000));
        throw new TooManyRequestsException(this.refusal(limit, retryAfter), retryAfter);
      }
    }
  }
}
