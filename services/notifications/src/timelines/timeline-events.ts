import { on } from '@timeliner/platform';
import { TimelinesEvents, Visibility } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { idOf } from '../ids.js';
import type { Notifier } from '../notifications/notifier.js';
import { UserRecord } from '../users/user.entity.js';
import { TimelineMember, TimelineRecord, type TimelineVisibility } from './timeline.entity.js';

const VISIBILITY: Partial<Record<Visibility, TimelineVisibility>> = {
  [Visibility.PRIVATE]: 'private',
  [Visibility.UNLISTED]: 'unlisted',
  [Visibility.PUBLIC]: 'public',
};

const at = (occurredAt: string) => new Date(occurredAt);

/** The owner and collaborators: the only people who may see a private timeline. */
export async function insiders(manager: EntityManager, timeline: Pick<TimelineRecord, 'id' | 'ownerId'>): Promise<string[]> {
  const members = await manager.findBy(TimelineMember, { timelineId: timeline.id });
  return [timeline.ownerId, ...members.map((m) => m.userId)];
}

/**
 * Whether a person may see what is on a timeline: anyone unless it is private, then only its
 * owner and collaborators. A timeline this service has not heard of yet is given the benefit.
 */
export async function maySee(manager: EntityManager, timelineId: string | null, userId: string): Promise<boolean> {
  if (!timelineId) return true;
  const timeline = await manager.findOneBy(TimelineRecord, { id: timelineId });
  if (!timeline || timeline.visibility !== 'private') return true;
  return (await insiders(manager, timeline)).includes(userId);
}

/**
 * The timelines read model, the collaboration notifications (invited, added, made owner), and
 * the rule that nobody keeps a notification about a timeline they may no longer see:
 *
 * - deleted: every notification about it goes, for everyone;
 * - made private: everyone but its owner and collaborators loses theirs;
 * - a collaborator removed from a timeline that is not public loses theirs (an unlisted
 *   timeline is still open to whoever has its link; a public one to everyone).
 *
 * "About a timeline" means anything on it: the timeline, its videos and their comments.
 */
export const timelineEventHandlers = (notifier: Notifier) => [
  on(TimelinesEvents.TimelineSnapshot, async (snapshot, _meta, manager) => {
    const id = idOf(snapshot.timelineId);
    const ownerId = idOf(snapshot.creatorId);
    if (!id || !ownerId) return;
    const known = await manager.findOneBy(TimelineRecord, { id });
    if (known && BigInt(known.revision) >= snapshot.revision) return;
    const visibility = VISIBILITY[snapshot.visibility] ?? 'private';
    await manager.upsert(TimelineRecord, { id, ownerId, title: snapshot.title.slice(0, 200), visibility, revision: snapshot.revision.toString() }, ['id']);
    if (visibility === 'private' && known?.visibility !== 'private') {
      await notifier.dropAboutTimeline(manager, id, { except: await insiders(manager, { id, ownerId }) });
    }
  }),
  on(TimelinesEvents.TimelineUpdated, async (change, _meta, manager) => {
    const id = idOf(change.timelineId);
    if (!id) return;
    const timeline = await manager.findOneBy(TimelineRecord, { id });
    if (!timeline) return;
    if (change.title !== undefined) timeline.title = change.title.slice(0, 200);
    const visibility = change.visibility === undefined ? undefined : VISIBILITY[change.visibility];
    const madePrivate = visibility === 'private' && timeline.visibility !== 'private';
    if (visibility) timeline.visibility = visibility;
    await manager.save(TimelineRecord, timeline);
    if (madePrivate) await notifier.dropAboutTimeline(manager, id, { except: await insiders(manager, timeline) });
  }),
  on(TimelinesEvents.TimelineDeleted, async (deleted, _meta, manager) => {
    const id = idOf(deleted.timelineId);
    if (!id) return;
    await notifier.dropAboutTimeline(manager, id, 'everyone');
    await manager.delete(TimelineMember, { timelineId: id });
    await manager.delete(TimelineRecord, { id });
  }),
  on(TimelinesEvents.CollaboratorAdded, async (added, meta, manager) => {
    const timelineId = idOf(added.timelineId);
    const userId = idOf(added.userId);
    if (!timelineId || !userId) return;
    await manager.upsert(TimelineMember, { timelineId, userId }, ['timelineId', 'userId']);
    const timeline = await manager.findOneBy(TimelineRecord, { id: timelineId });
    // Joining through one's own acceptance of an invitation is one's own action.
    const actorId = meta.actorUserId ? idOf(meta.actorUserId) : null;
    await notifier.add(manager, {
      recipientId: userId,
      kind: 'collaborator_added',
      target: { type: 'timeline', id: timelineId, timelineId, title: timeline?.title ?? null },
      sourceKey: `collaborator:${timelineId}:${meta.id}`,
      actorId: actorId ?? timeline?.ownerId ?? null,
      occurredAt: at(meta.occurredAt),
    });
  }),
  on(TimelinesEvents.CollaboratorRemoved, async (removed, _meta, manager) => {
    const timelineId = idOf(removed.timelineId);
    const userId = idOf(removed.userId);
    if (!timelineId || !userId) return;
    await manager.delete(TimelineMember, { timelineId, userId });
    const timeline = await manager.findOneBy(TimelineRecord, { id: timelineId });
    if (timeline?.visibility === 'public' || timeline?.visibility === 'unlisted' || timeline?.ownerId === userId) return;
    await notifier.dropAboutTimeline(manager, timelineId, { only: [userId] });
  }),
  on(TimelinesEvents.OwnershipTransferred, async (transfer, meta, manager) => {
    const timelineId = idOf(transfer.timelineId);
    const newOwnerId = idOf(transfer.newOwnerId);
    const previousOwnerId = idOf(transfer.previousOwnerId);
    if (!timelineId || !newOwnerId) return;
    const timeline = await manager.findOneBy(TimelineRecord, { id: timelineId });
    if (timeline) await manager.update(TimelineRecord, { id: timelineId }, { ownerId: newOwnerId });
    // The previous owner stays on as an editor.
    await manager.delete(TimelineMember, { timelineId, userId: newOwnerId });
    if (previousOwnerId) await manager.upsert(TimelineMember, { timelineId, userId: previousOwnerId }, ['timelineId', 'userId']);
    await notifier.add(manager, {
      recipientId: newOwnerId,
      kind: 'ownership_transferred',
      target: { type: 'timeline', id: timelineId, timelineId, title: timeline?.title ?? null },
      sourceKey: `ownership:${timelineId}:${meta.id}`,
      actorId: (meta.actorUserId ? idOf(meta.actorUserId) : null) ?? previousOwnerId,
      occurredAt: at(meta.occurredAt),
    });
  }),
  // An invitation names an e-mail address; a person with an account at it is told in the app too.
  on(TimelinesEvents.InvitationCreated, async (invitation, meta, manager) => {
    const invitationId = idOf(invitation.invitationId);
    const timelineId = idOf(invitation.timelineId);
    if (!invitationId || !timelineId || !invitation.email) return;
    const invitee = await manager.findOneBy(UserRecord, { email: invitation.email.trim().toLowerCase() });
    if (!invitee) return;
    const timeline = await manager.findOneBy(TimelineRecord, { id: timelineId });
    await notifier.add(manager, {
      recipientId: invitee.id,
      kind: 'invitation',
      target: { type: 'invitation', id: invitationId, timelineId, title: timeline?.title ?? null },
      sourceKey: `invitation:${invitationId}`,
      actorId: idOf(invitation.inviterId) ?? (meta.actorUserId ? idOf(meta.actorUserId) : null),
      occurredAt: at(meta.occurredAt),
    });
  }),
  // An invitation answered or withdrawn is no longer news.
  on(TimelinesEvents.InvitationCancelled, async (invitation, _meta, manager) => {
    const invitationId = idOf(invitation.invitationId);
    if (invitationId) await notifier.retract(manager, `invitation:${invitationId}`);
  }),
];
