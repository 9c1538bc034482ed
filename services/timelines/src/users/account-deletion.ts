import { idOf, on, Outbox, requestOutboxErasure } from '@timeliner/platform';
import { AuthEvents, TimelinesEvents } from '@timeliner/proto';
import { CollaboratorRepository } from '../collaborators/collaborator.repository.js';
import { publishSnapshot, snapshotContext } from '../timelines/snapshot.js';

/**
 * An account gone for good (auth's UserDeleted): the timelines it created are deleted as their
 * owner would (TimelineDeleted: every service drops their items, comments, likes and search
 * documents; collaborators, invitations and analytics go by cascade); it leaves every other team
 * (CollaboratorRemoved, and a new snapshot of the timeline); its invitations, follows, watch
 * positions, filters and the copy of its profile go. Applying it twice finds nothing the second time.
 */
export const accountDeletionHandlers = [
  on(AuthEvents.UserDeleted, async (deleted, meta, manager) => {
    const id = idOf(deleted.userId);
    if (!id) return;
    // The outbox rows naming the person go once sent (the TimelineDeleted and CollaboratorRemoved below among them).
    await requestOutboxErasure(manager, { userId: id, names: [deleted.username, deleted.email] });
    const context = snapshotContext(meta);
    const q = <T = unknown>(sql: string, params: unknown[] = [id]) => manager.query(sql, params) as Promise<T>;
    const own = await q<Array<{ id: string }>>('SELECT id FROM timelines WHERE creator_id = $1 ORDER BY id FOR UPDATE');
    for (const timeline of own) {
      await q('DELETE FROM timelines WHERE id = $1', [timeline.id]);
      await Outbox.add(manager, TimelinesEvents.TimelineDeleted, { timelineId: timeline.id, creatorId: id }, context);
    }
    const [teams] = await q<[Array<{ timeline_id: string }>, number]>('DELETE FROM collaborators WHERE user_id = $1 RETURNING timeline_id');
    const collaborators = new CollaboratorRepository(manager.connection);
    for (const { timeline_id: timelineId } of teams) {
      const membersVersion = await collaborators.bumpVersion(manager, timelineId);
      await Outbox.add(manager, TimelinesEvents.CollaboratorRemoved, { timelineId, userId: id, membersVersion }, context);
      await publishSnapshot(manager, Outbox, timelineId, context);
    }
    const email = deleted.email.trim().toLowerCase();
    await q('DELETE FROM invitations WHERE inviter_user_id = $1 OR accepted_by_user_id = $1 OR ($2 <> \'\' AND lower(email) = $2)', [id, email]);
    await q('DELETE FROM account_follows WHERE followee_id = $1 OR follower_id = $1');
    await q('DELETE FROM watch_positions WHERE user_id = $1');
    await q('DELETE FROM person_filters WHERE owner_id = $1 OR other_id = $1');
    await q('DELETE FROM muted_words WHERE user_id = $1');
    await q('DELETE FROM muted_word_lists WHERE user_id = $1');
    await q('DELETE FROM moderation_hidden WHERE subject_id = $1');
    await q('DELETE FROM person_limit_hits WHERE user_id = $1');
    await q('DELETE FROM users WHERE id = $1');
  }),
];
