import { idOf, on } from '@timeliner/platform';
import { SocialEvents, TargetType } from '@timeliner/proto';
import type { Notifier } from '../notifications/notifier.js';
import { TimelineRecord } from '../timelines/timeline.entity.js';

/**
 * Comment controls: the owner of an item hears that a comment waits for approval once per queue,
 * when the first comment arrives in an empty queue (a flood of held comments is one notification;
 * the studio shows how many wait), and the author of a held comment hears when it is approved.
 */
export const commentControlEventHandlers = (notifier: Notifier) => [
  on(SocialEvents.CommentHeld, async (held, meta, manager) => {
    const commentId = idOf(held.commentId);
    const targetId = idOf(held.targetId);
    const ownerId = idOf(held.ownerId);
    const actorId = idOf(held.userId);
    if (!commentId || !targetId || !ownerId || !actorId) return;
    if (held.heldCount !== 1n) return;
    const onTimeline = held.targetType === TargetType.TIMELINE;
    if (!onTimeline && held.targetType !== TargetType.POST) return;
    await notifier.add(manager, {
      recipientId: ownerId,
      kind: 'comments_held',
      target: { type: 'held_comments', id: targetId, timelineId: onTimeline ? targetId : null, title: onTimeline ? (held.timelineTitle ?? null) : null },
      sourceKey: `held:${commentId}`,
      actorId,
      occurredAt: new Date(meta.occurredAt),
    });
  }),

  on(SocialEvents.CommentApproved, async (approved, meta, manager) => {
    const commentId = idOf(approved.commentId);
    const targetId = idOf(approved.targetId);
    const authorId = idOf(approved.userId);
    const moderatorId = idOf(approved.approvedBy);
    if (!commentId || !targetId || !authorId) return;
    const timelineId = idOf(approved.timelineId);
    // The timeline's name when this copy knows it; the notice does not wait for it.
    const title = timelineId ? ((await manager.findOneBy(TimelineRecord, { id: timelineId }))?.title ?? null) : null;
    await notifier.add(manager, {
      recipientId: authorId,
      kind: 'comment_approved',
      target: approved.targetType === TargetType.POST ? { type: 'post', id: targetId, timelineId: null, title: null } : { type: 'comment', id: commentId, timelineId, title },
      sourceKey: `approved:${commentId}`,
      actorId: moderatorId,
      occurredAt: new Date(meta.occurredAt),
    });
  }),
];
