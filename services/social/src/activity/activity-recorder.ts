import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { ActivityTargetType, ActivityType } from './activity.entity.js';

/** One thing to record: who did what to which timeline or person, and the event that says so. */
export interface ActivityRecord {
  /** The id of the event that announced it: recording the same event again changes nothing. */
  sourceEventId: string;
  userId: string;
  activityType: ActivityType;
  targetType: ActivityTargetType;
  targetId: string;
  /** ISO-8601; now (the transaction's time) when absent. */
  createdAt?: string;
}

/**
 * Records an activity in the caller's transaction. The metadata comes from this service's read
 * models as they are now: the timeline's title (feed_timelines) or the followed person's username
 * (users); the activity list reads them fresh again and falls back to these when they are gone.
 *
 * Where it is called from: social's own changes (likes, bookmarks, comments, follows) record in
 * the transaction that writes their event to the outbox (the social consumer does not subscribe to
 * its own events, and the person sees their activity at once); a timeline's creation is recorded
 * when its first snapshot reaches feed_timelines (feed-timeline-events.ts).
 */
export async function recordActivity(manager: EntityManager, record: ActivityRecord): Promise<void> {
  const timelineId = record.targetType === 'timeline' ? record.targetId : null;
  await manager.query(
    `INSERT INTO activities (id, user_id, activity_type, target_type, target_id, timeline_id, metadata, source_event_id, created_at)
     VALUES ($1::uuid, $2::uuid, $3::varchar, $4::varchar, $5::uuid, $6::uuid,
             jsonb_strip_nulls(jsonb_build_object(
               'timelineTitle', (SELECT title FROM feed_timelines WHERE id = $6::uuid),
               'followedUsername', CASE WHEN $4::varchar = 'user' THEN (SELECT username FROM users WHERE id = $5::uuid) END)),
             $7::uuid, coalesce($8::timestamptz, now()))
     ON CONFLICT (source_event_id) DO NOTHING`,
    [randomUUID(), record.userId, record.activityType, record.targetType, record.targetId, timelineId, record.sourceEventId, record.createdAt ?? null],
  );
}

/** Takes an activity back (an unlike, an unfollow, a removed bookmark): it leaves the list. */
export async function removeActivity(manager: EntityManager, userId: string, activityType: ActivityType, targetId: string): Promise<void> {
  await manager.query('DELETE FROM activities WHERE target_id = $1 AND user_id = $2 AND activity_type = $3', [targetId, userId, activityType]);
}

/** A deleted timeline: every activity about it goes (nobody may see it any more). */
export async function forgetTimelineActivities(manager: EntityManager, timelineId: string): Promise<void> {
  await manager.query(`DELETE FROM activities WHERE target_id = $1 AND target_type = 'timeline'`, [timelineId]);
}

/** A deleted account: its own activities go (follows of it go with their unfollows). */
export async function forgetUserActivities(manager: EntityManager, userId: string): Promise<void> {
  await manager.query('DELETE FROM activities WHERE user_id = $1', [userId]);
}
