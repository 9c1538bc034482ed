import { idOf, MissingReferenceError, on } from '@timeliner/platform';
import { type TimelineSnapshot, TimelinesEvents, Visibility } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { Notifier } from '../notifications/notifier.js';
import { UserRecord } from '../users/user.entity.js';
import { joinTeam, leaveTeam } from './team-copy.js';
import { TimelineMember, TimelineMemberRemoval, TimelineRecord, type TimelineVisibility } from './timeline.entity.js';

export const VISIBILITY: Partial<Record<Visibility, TimelineVisibility>> = {
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

/** What leaves a tombstone when deleted (or, for an invitation, answered or withdrawn). */
export type TombstoneKind = 'timeline' | 'video' | 'comment' | 'post' | 'invitation';

/**
 * Remembers that something was deleted (its rows go; the tombstone stays): an event about it that
 * comes later, on another subject (the comment's addition after its deletion), is then moot.
 */
export async function bury(manager: EntityManager, kind: TombstoneKind, id: string): Promise<void> {
  await manager.query('INSERT INTO tombstones (kind, id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [kind, id]);
}

/** Whether something is known to have been deleted. */
export async function isGone(manager: EntityManager, kind: TombstoneKind, id: string): Promise<boolean> {
  const rows: unknown[] = await manager.query('SELECT 1 FROM tombstones WHERE kind = $1 AND id = $2', [kind, id]);
  return rows.length > 0;
}

/** What an event may say of its timeline itself (newer events do: social's, from the access check). */
export interface CarriedTimeline {
  ownerId?: string | null;
  visibility?: TimelineVisibility | null;
  title?: string | null;
}

export interface TimelineFacts {
  id: string;
  ownerId: string;
  title: string | null;
  visibility: TimelineVisibility;
  /** From this service's copy (false: only from the event, the copy has not heard of it yet). */
  known: boolean;
}

/**
 * A timeline as this service knows it or, when its copy has not heard of it yet (the timelines'
 * events come on other subjects, which may be behind), as the event describes it; null when it
 * was deleted. Neither: MissingReferenceError, so the event is tried again later, never skipped.
 */
export async function timelineFacts(manager: EntityManager, timelineId: string, carried: CarriedTimeline = {}): Promise<TimelineFacts | null> {
  const record = await manager.findOneBy(TimelineRecord, { id: timelineId });
  if (record) return { id: record.id, ownerId: record.ownerId, title: record.title, visibility: record.visibility, known: true };
  if (await isGone(manager, 'timeline', timelineId)) return null;
  if (carried.ownerId && carried.visibility) return { id: timelineId, ownerId: carried.ownerId, title: carried.title ?? null, visibility: carried.visibility, known: false };
  throw new MissingReferenceError('timeline', timelineId);
}

/**
 * Whether a person may see what is on a timeline: anyone unless it is private, then only its
 * owner and collaborators. Private and known only from the event, for someone not (yet) a
 * collaborator here: MissingReferenceError, decided once the timeline's own events are in.
 */
export async function mayAccess(manager: EntityManager, timeline: TimelineFacts, userId: string): Promise<boolean> {
  if (timeline.visibility !== 'private' || userId === timeline.ownerId) return true;
  if (await manager.findOneBy(TimelineMember, { timelineId: timeline.id, userId })) return true;
  if (!timeline.known) throw new MissingReferenceError('timeline', timeline.id);
  return false;
}

/**
 * Whether a person may see what is on a timeline (mayAccess); nobody may once it is deleted, and
 * a timeline not heard of yet throws MissingReferenceError (timelineFacts).
 */
export async function maySee(manager: EntityManager, timelineId: string | null, userId: string): Promise<boolean> {
  if (!timelineId) return true;
  const timeline = await timelineFacts(manager, timelineId);
  return timeline !== null && mayAccess(manager, timeline, userId);
}

/**
 * Held until the transaction ends: a snapshot and a deletion of the same timeline (the live
 * consumer's and a rebuild's) happen one after the other, so a deletion is never overtaken by a
 * snapshot that checked for its tombstone before it was committed.
 */
async function lockTimeline(manager: EntityManager, id: string): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('notifications.timeline:' || $1, 0))`, [id]);
}

/**
 * A timeline's snapshot (live, or replayed by a rebuild): taken over an older revision only, never
 * for a deleted timeline; made private, everyone but its owner and collaborators loses what they
 * were told about it.
 */
export async function applyTimelineSnapshot(manager: EntityManager, notifier: Notifier, snapshot: TimelineSnapshot): Promise<void> {
  const id = idOf(snapshot.timelineId);
  const ownerId = idOf(snapshot.creatorId);
  if (!id || !ownerId) return;
  await lockTimeline(manager, id);
  if (await isGone(manager, 'timeline', id)) return;
  const known = await manager.findOneBy(TimelineRecord, { id });
  if (known && BigInt(known.revision) >= snapshot.revision) return;
  const visibility = VISIBILITY[snapshot.visibility] ?? 'private';
  await manager.upsert(TimelineRecord, { id, ownerId, title: snapshot.title.slice(0, 200), visibility, revision: snapshot.revision.toString() }, ['id']);
  if (visibility === 'private' && known?.visibility !== 'private') {
    await notifier.dropAboutTimeline(manager, id, { except: await insiders(manager, { id, ownerId }) });
  }
}

/**
 * A page of snapshots at once, as applyTimelineSnapshot takes them one by one (a rebuild's page):
 * the timelines' locks in id order, one multi-row upsert that skips deleted timelines and takes a
 * snapshot over an older revision only, then, for each timeline it made private, what its
 * outsiders were told goes.
 */
export async function applyTimelineSnapshots(manager: EntityManager, notifier: Notifier, snapshots: readonly TimelineSnapshot[]): Promise<void> {
  const rows = new Map<string, { ownerId: string; title: string; visibility: TimelineVisibility; revision: bigint }>();
  for (const snapshot of snapshots) {
    const id = idOf(snapshot.timelineId);
    const ownerId = idOf(snapshot.creatorId);
    if (!id || !ownerId) continue;
    const held = rows.get(id);
    if (held && held.revision >= snapshot.revision) continue;
    rows.set(id, { ownerId, title: snapshot.title.slice(0, 200), visibility: VISIBILITY[snapshot.visibility] ?? 'private', revision: snapshot.revision });
  }
  if (rows.size === 0) return;
  const ids = [...rows.keys()].sort();
  const column = <T>(f: (row: NonNullable<ReturnType<typeof rows.get>>) => T) => ids.map((id) => f(rows.get(id)!));
  await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('notifications.timeline:' || id, 0)) FROM unnest($1::text[]) AS id ORDER BY id`, [ids]);
  const madePrivate = (await manager.query(
    `WITH incoming AS (
       SELECT x.* FROM unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::varchar[], $5::bigint[]) AS x(id, owner_id, title, visibility, revision)
        WHERE NOT EXISTS (SELECT 1 FROM tombstones g WHERE g.kind = 'timeline' AND g.id = x.id)
     ), before AS (
       SELECT t.id, t.visibility FROM timelines t JOIN incoming i ON i.id = t.id
     ), written AS (
       INSERT INTO timelines AS t (id, owner_id, title, visibility, revision)
       SELECT id, owner_id, title, visibility, revision FROM incoming ORDER BY id
       ON CONFLICT (id) DO UPDATE SET owner_id = EXCLUDED.owner_id, title = EXCLUDED.title, visibility = EXCLUDED.visibility, revision = EXCLUDED.revision
        WHERE t.revision < EXCLUDED.revision
       RETURNING t.id, t.owner_id, t.visibility)
     SELECT w.id, w.owner_id AS "ownerId" FROM written w LEFT JOIN before b ON b.id = w.id
      WHERE w.visibility = 'private' AND b.visibility IS DISTINCT FROM 'private' ORDER BY w.id`,
    [ids, column((r) => r.ownerId), column((r) => r.title), column((r) => r.visibility), column((r) => r.revision.toString())],
  )) as Array<{ id: string; ownerId: string }>;
  for (const timeline of madePrivate) await notifier.dropAboutTimeline(manager, timeline.id, { except: await insiders(manager, timeline) });
}

/** A deleted timeline (its event, or a rebuild that finds it gone): every notification about it goes, and it leaves a tombstone. */
export async function forgetTimeline(manager: EntityManager, notifier: Notifier, id: string): Promise<void> {
  await lockTimeline(manager, id);
  await notifier.dropAboutTimeline(manager, id, 'everyone');
  await manager.delete(TimelineMember, { timelineId: id });
  await manager.delete(TimelineMemberRemoval, { timelineId: id });
  await manager.delete(TimelineRecord, { id });
  await bury(manager, 'timeline', id);
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
 *
 * A deleted timeline leaves a tombstone: a snapshot overtaken by the deletion does not bring it
 * back, and events about it are known to be about something gone. An event that names a timeline
 * not heard of yet (and not deleted) throws MissingReferenceError: tried again later, never skipped.
 */
export const timelineEventHandlers = (notifier: Notifier) => [
  on(TimelinesEvents.TimelineSnapshot, (snapshot, _meta, manager) => applyTimelineSnapshot(manager, notifier, snapshot)),
  on(TimelinesEvents.TimelineUpdated, async (change, _meta, manager) => {
    const id = idOf(change.timelineId);
    if (!id) return;
    const timeline = await manager.findOneBy(TimelineRecord, { id });
    // Not heard of yet: its snapshot, published with every change, brings the same title and visibility.
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
    await forgetTimeline(manager, notifier, id);
  }),
  on(TimelinesEvents.CollaboratorAdded, async (added, meta, manager) => {
    const timelineId = idOf(added.timelineId);
    const userId = idOf(added.userId);
    if (!timelineId || !userId) return;
    const timeline = await timelineFacts(manager, timelineId);
    if (!timeline) return;
    await joinTeam(manager, timelineId, userId, added.membersVersion);
    // Joining through one's own acceptance of an invitation is one's own action.
    const actorId = meta.actorUserId ? idOf(meta.actorUserId) : null;
    await notifier.add(manager, {
      recipientId: userId,
      kind: 'collaborator_added',
      target: { type: 'timeline', id: timelineId, timelineId, title: timeline.title },
      sourceKey: `collaborator:${timelineId}:${meta.id}`,
      actorId: actorId ?? timeline.ownerId,
      occurredAt: at(meta.occurredAt),
    });
  }),
  on(TimelinesEvents.CollaboratorRemoved, async (removed, _meta, manager) => {
    const timelineId = idOf(removed.timelineId);
    const userId = idOf(removed.userId);
    if (!timelineId || !userId) return;
    const timeline = await timelineFacts(manager, timelineId);
    if (!timeline) return;
    // A removal older than what is here (the person added again since) changes nothing.
    if (!(await leaveTeam(manager, timelineId, userId, removed.membersVersion))) return;
    if (timeline.visibility === 'public' || timeline.visibility === 'unlisted' || timeline.ownerId === userId) return;
    await notifier.dropAboutTimeline(manager, timelineId, { only: [userId] });
  }),
  on(TimelinesEvents.OwnershipTransferred, async (transfer, meta, manager) => {
    const timelineId = idOf(transfer.timelineId);
    const newOwnerId = idOf(transfer.newOwnerId);
    const previousOwnerId = idOf(transfer.previousOwnerId);
    if (!timelineId || !newOwnerId) return;
    const timeline = await timelineFacts(manager, timelineId);
    if (!timeline) return;
    await manager.update(TimelineRecord, { id: timelineId }, { ownerId: newOwnerId });
    // The previous owner stays on as an editor.
    await leaveTeam(manager, timelineId, newOwnerId, transfer.membersVersion);
    if (previousOwnerId) await joinTeam(manager, timelineId, previousOwnerId, transfer.membersVersion);
    await notifier.add(manager, {
      recipientId: newOwnerId,
      kind: 'ownership_transferred',
      target: { type: 'timeline', id: timelineId, timelineId, title: timeline.title },
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
    if (await isGone(manager, 'invitation', invitationId)) return; // answered or withdrawn already
    const invitee = await manager.findOneBy(UserRecord, { email: invitation.email.trim().toLowerCase() });
    if (!invitee) return;
    const timeline = await timelineFacts(manager, timelineId);
    if (!timeline) return;
    await notifier.add(manager, {
      recipientId: invitee.id,
      kind: 'invitation',
      target: { type: 'invitation', id: invitationId, timelineId, title: timeline.title },
      sourceKey: `invitation:${invitationId}`,
      actorId: idOf(invitation.inviterId) ?? (meta.actorUserId ? idOf(meta.actorUserId) : null),
      occurredAt: at(meta.occurredAt),
    });
  }),
  // An invitation answered or withdrawn is no longer news.
  on(TimelinesEvents.InvitationCancelled, async (invitation, _meta, manager) => {
    const invitationId = idOf(invitation.invitationId);
    if (!invitationId) return;
    await notifier.retract(manager, `invitation:${invitationId}`);
    await bury(manager, 'invitation', invitationId);
  }),
];
