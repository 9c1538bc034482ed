import { on, type EventWriter } from '@timeliner/platform';
import { AuthEvents, RevocationReason } from '@timeliner/proto';
import { forgetUserActivities } from '../activity/activity-recorder.js';
import { forgetInbox } from '../feed/following-inbox.js';
import { isUuid } from '../ids.js';
import { UserRecord } from '../users/user.entity.js';
import { FollowRepository } from './follow.repository.js';
import { announceFollowChange } from './follow.service.js';

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
    const userId = revoked.userId.toLowerCase();
    const changes = await new FollowRepository(manager.connection).forget(manager, userId);
    for (const change of changes) await announceFollowChange(events, manager, change, { actorUserId: userId, requestId: meta.requestId ?? meta.id });
    await forgetInbox(manager, userId);
    await forgetUserActivities(manager, userId);
    await manager.delete(UserRecord, { id: userId });
  }),
];
