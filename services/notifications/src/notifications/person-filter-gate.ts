import { copyFreeOfMutedWordsSql, copyNotBlockedSql, copyNotMutedSql } from '@timeliner/platform';
import type { EntityManager } from 'typeorm';

/**
 * Whether the recipient is not to be told of the actor's action (issue 28), from this service's
 * copy of the blocks, mutes and muted words (platform person-filters): the two blocked each other
 * (either way), the recipient muted the actor, or one of the recipient's muted words is in what
 * the notification would show. Nothing is stored, pushed or sent to a socket then.
 */
export async function silencedFor(manager: EntityManager, recipientId: string, actorId: string | null, text: string): Promise<boolean> {
  const [row] = (await manager.query(
    `SELECT NOT (($2::uuid IS NULL OR (${copyNotBlockedSql('$1::uuid', '$2::uuid')} AND ${copyNotMutedSql('$1::uuid', '$2::uuid')}))
                 AND ($3::text = '' OR ${copyFreeOfMutedWordsSql('$1::uuid', '$3::text')})) AS silenced`,
    [recipientId, actorId, text],
  )) as Array<{ silenced: boolean }>;
  return row?.silenced ?? false;
}
