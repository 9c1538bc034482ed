import { timestampDate } from '@bufbuild/protobuf/wkt';
import { isUuid, on, Outbox } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import { refreshActivity } from './activity.js';
import { publishSnapshot, snapshotContext } from './snapshot.js';

/**
 * Comment counts and times, from the social service's events (it owns the comments). The inbox
 * makes each event count once however often it is delivered.
 */
export const commentEventHandlers = [
  on(SocialEvents.TimelineCommentAdded, async (comment, meta, manager) => {
    if (!isUuid(comment.timelineId)) return;
    const at = comment.createdAt ? timestampDate(comment.createdAt) : new Date(meta.occurredAt);
    // A comment on a timeline deleted meanwhile changes nothing.
    await manager.query(
      `UPDATE timelines SET comments_count = comments_count + 1, last_comment_at = greatest(last_comment_at, $2::timestamptz) WHERE id = $1`,
      [comment.timelineId, at],
    );
    await refreshActivity(manager, comment.timelineId);
    await publishSnapshot(manager, Outbox, comment.timelineId, snapshotContext(meta));
  }),
  on(SocialEvents.TimelineCommentDeleted, async (comment, meta, manager) => {
    if (!isUuid(comment.timelineId)) return;
    await manager.query('UPDATE timelines SET comments_count = greatest(comments_count - 1, 0) WHERE id = $1', [comment.timelineId]);
    await refreshActivity(manager, comment.timelineId);
    await publishSnapshot(manager, Outbox, comment.timelineId, snapshotContext(meta));
  }),
];
