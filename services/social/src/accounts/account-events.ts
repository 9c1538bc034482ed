import { type EventWriter, isUuid, on } from '@timeliner/platform';
import { AuthEvents, RevocationReason } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { forgetUserActivities } from '../activity/activity-recorder.js';
import { forgetInbox } from '../feed-index/following-inbox.js';
import { PersonFilterRepository } from '../person-filters/person-filter.repository.js';
import { rememberDeletedAccount } from '../users/deleted-users.js';
import { UserRecord } from '../users/user.entity.js';
import { forgetFollowRequests } from '../follows/follow-request.service.js';
import { FollowRepository } from '../follows/follow.repository.js';
import { announceFollowChange } from '../follows/follow.service.js';

/**
 * A deleted account (the auth service revokes its sessions with ACCOUNT_DELETED; one event per
 * session, so this runs more than once and the later runs find nothing): its follows both ways
 * its counts and its activity go, the other people's counts go down with a FollowChanged each, and the person
 * leaves the users read model so nobody can follow them again.
 */
export const followEventHandlers = (events: EventWriter) => [
  on(AuthEvents.SessionRevoked, async (revoked, meta, manager) => {
    if (revoked.reason !== RevocationReason.ACCOUNT_DELETED) return;
    if (!isUuid(revoked.userId)) return;
    await forgetAccount(events, manager, revoked.userId.toLowerCase(), meta.requestId ?? meta.id);
  }),
];

/** Everything this service keeps of a deleted account goes (see above; also a people rebuild's removal). */
export async function forgetAccount(events: EventWriter, manager: EntityManager, userId: string, requestId: string): Promise<void> {
  const changes = await new FollowRepository(manager.connection).forget(manager, userId);
  for (const change of changes) await announceFollowChange(events, manager, change, { actorUserId: userId, requestId });
  await forgetFollowRequests(events, manager, userId, { actorUserId: userId, requestId });
  await forgetInbox(manager, userId);
  await forgetUserActivities(manager, userId);
  await new PersonFilterRepository(manager.connection).forget(manager, userId);
  await manager.delete(UserRecord, { id: userId });
  // Remembered (by a digest of the id, users/deleted-users.ts): a profile change or registration arriving later (other subjects) is moot.
  await rememberDeletedAccount(manager, userId);
}
