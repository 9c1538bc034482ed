import { idOf, on } from '@timeliner/platform';
import { FollowRequestState, SocialEvents } from '@timeliner/proto';
import type { Notifier } from '../notifications/notifier.js';

/** The source of a request's notification: one per requester and account, found again when it is answered or taken back. */
export const followRequestSource = (requesterId: string) => `follow_request:${requesterId}`;

/**
 * Follow requests to a private account: its owner is told "X asked to follow you" (leading to the
 * list of pending requests); once the request is approved, declined or taken back, that notice is
 * taken back (an approval is then told as a follow by FollowChanged).
 */
export const followRequestEventHandlers = (notifier: Notifier) => [
  on(SocialEvents.FollowRequestChanged, async (change, meta, manager) => {
    const requesterId = idOf(change.requesterId);
    const targetId = idOf(change.targetId);
    if (!requesterId || !targetId) return;
    const sourceKey = followRequestSource(requesterId);
    if (change.state !== FollowRequestState.REQUESTED) return notifier.retract(manager, sourceKey, targetId);
    await notifier.add(manager, {
      recipientId: targetId,
      kind: 'follow_request',
      target: { type: 'follow_requests', id: targetId, timelineId: null, title: null },
      sourceKey,
      actorId: requesterId,
      occurredAt: new Date(meta.occurredAt),
    });
  }),
];
