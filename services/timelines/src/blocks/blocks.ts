import { ForbiddenException } from '@nestjs/common';
import { copyNotBlockedSql } from '@timeliner/platform';
import type { EntityManager } from 'typeorm';

export const BLOCKED_COLLABORATOR = 'You cannot add this person to this timeline';

/**
 * Nobody collaborates with someone they blocked or who blocked them (issue 28), from this
 * service's copy of the blocks (platform person-filters, kept from the social service's
 * BlockChanged): a person is not added to a timeline (invited with an account, an invitation
 * resent or accepted) when they and the one adding them, the timeline's owner or the invitation's
 * sender are a blocked pair, either way.
 */
export async function refuseBlockedCollaborator(manager: EntityManager, personId: string, callerId: string, timelineId: string, invitationId: string | null): Promise<void> {
  const rows: unknown[] = await manager.query(
    `SELECT 1 FROM (SELECT $2::uuid AS other
                    UNION SELECT creator_id FROM timelines WHERE id = $3
                    UNION SELECT inviter_user_id FROM invitations WHERE id = $4::uuid) o
      WHERE o.other IS NOT NULL AND o.other <> $1::uuid AND NOT ${copyNotBlockedSql('$1::uuid', 'o.other')}`,
    [personId, callerId, timelineId, invitationId],
  );
  if (rows.length > 0) throw new ForbiddenException(BLOCKED_COLLABORATOR);
}

/**
 * SQL that is true when the timeline's creator `creatorSql` and the caller `callerSql` (a uuid
 * parameter, NULL for anonymous callers) are a blocked pair, either way: the timeline is then as
 * absent to the caller as a private one, wherever they look (the routes here, CheckAccess for
 * media, comments, likes and /ws). Collaborators are let in by their role, before this is asked.
 */
export const hiddenByBlock = (creatorSql: string, callerSql: string): string => `(${callerSql}::uuid IS NOT NULL AND NOT ${copyNotBlockedSql(`${callerSql}::uuid`, creatorSql)})`;
