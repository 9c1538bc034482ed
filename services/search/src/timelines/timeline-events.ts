import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { clipCodePoints, isUuid, on } from '@timeliner/platform';
import { type TimelineSnapshot, TimelineStatus, TimelinesEvents, Visibility } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { dropHashtagUses, syncHashtagUses } from '../hashtags/hashtag-uses.js';
import { hashtagsOf } from '../text/hashtags.js';

const INT32_MAX = 2_147_483_647;
const count = (n: number) => (Number.isFinite(n) ? Math.min(Math.max(0, Math.trunc(n)), INT32_MAX) : 0);

// Years 1 to 9999: what toISOString writes as YYYY and Postgres takes without question.
const MIN_SECONDS = -62_135_596_800n;
const MAX_SECONDS = 253_402_300_799n;

/** A protobuf Timestamp as ISO-8601 text to the microsecond; undefined when absent or out of range. */
function timestampText(ts: Timestamp | undefined): string | undefined {
  if (!ts) return undefined;
  if (ts.seconds < MIN_SECONDS || ts.seconds > MAX_SECONDS || !Number.isInteger(ts.nanos) || ts.nanos < 0 || ts.nanos >= 1_000_000_000) return undefined;
  const seconds = new Date(Number(ts.seconds) * 1000).toISOString().slice(0, 19);
  return `${seconds}.${String(Math.floor(ts.nanos / 1000)).padStart(6, '0')}Z`;
}

/** What a timeline gained by being watched, liked and commented: the popularity measure. */
export const engagementOf = (t: { views: number; likesCount: number; commentsCount: number }): number => t.views + 2 * t.likesCount + 3 * t.commentsCount;

/** The search row a snapshot describes. */
export interface TimelineRow {
  id: string;
  creatorId: string;
  /** Public and published; anything else keeps no words. */
  listed: boolean;
  creatorName: string;
  title: string;
  description: string;
  hashtags: string[];
  videoCount: number;
  duration: number;
  views: number;
  likesCount: number;
  commentsCount: number;
  activityScore: number;
  lastActivityAt: string;
  createdAt: string;
  updatedAt: string;
  coverMediaId: string | null;
  /** The cover's short description; null when it has none (or the timeline is not listed). */
  coverAltText: string | null;
  revision: string;
  sensitive: boolean;
}

/**
 * The row a snapshot describes; null for one that cannot be (malformed ids, no revision). A
 * timeline that is not public and published keeps no title, description, name or tags here.
 */
export function timelineRow(snapshot: TimelineSnapshot, occurredAt: string): TimelineRow | null {
  if (!isUuid(snapshot.timelineId) || !isUuid(snapshot.creatorId) || snapshot.revision <= 0n) return null;
  const listed = snapshot.visibility === Visibility.PUBLIC && snapshot.status === TimelineStatus.PUBLISHED;
  const fallback = new Date(occurredAt).toISOString();
  const createdAt = timestampText(snapshot.createdAt) ?? fallback;
  const title = listed ? clipCodePoints(snapshot.title, 200) : '';
  const description = listed ? clipCodePoints(snapshot.description, 5000) : '';
  return {
    id: snapshot.timelineId.toLowerCase(),
    creatorId: snapshot.creatorId.toLowerCase(),
    listed,
    creatorName: listed ? clipCodePoints(snapshot.creatorName, 100) : '',
    title,
    description,
    hashtags: listed ? hashtagsOf(title, description) : [],
    videoCount: count(snapshot.videoCount),
    duration: count(snapshot.duration),
    // Views beyond 2^53 lose precision in ranking only.
    views: Number(snapshot.views < 0n ? 0n : snapshot.views),
    likesCount: count(snapshot.likesCount),
    commentsCount: count(snapshot.commentsCount),
    activityScore: Number.isFinite(snapshot.activityScore) ? snapshot.activityScore : 0,
    lastActivityAt: timestampText(snapshot.lastActivityAt) ?? createdAt,
    createdAt,
    updatedAt: timestampText(snapshot.updatedAt) ?? createdAt,
    coverMediaId: listed && isUuid(snapshot.coverMediaId) ? snapshot.coverMediaId.toLowerCase() : null,
    coverAltText: listed && isUuid(snapshot.coverMediaId) ? clipCodePoints(snapshot.coverAltText, 1500) || null : null,
    revision: snapshot.revision.toString(),
    sensitive: snapshot.sensitive === true,
  };
}

/**
 * Serializes what changes one timeline: snapshots and its deletion arrive on different subjects,
 * so possibly at the same moment on two replicas.
 */
async function lockTimeline(manager: EntityManager, timelineId: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`search_timeline:${timelineId}`]);
}

const COLUMNS = [
  'creator_id', 'listed', 'creator_name', 'title', 'description', 'hashtags', 'video_count', 'duration', 'views', 'likes_count', 'comments_count',
  'activity_score', 'popularity', 'last_activity_at', 'created_at', 'updated_at', 'cover_media_id', 'revision', 'sensitive', 'cover_alt_text',
];

/**
 * Applies a snapshot: the highest revision wins, so a redelivered, late or overtaken snapshot
 * changes nothing, and one for a deleted timeline never brings it back. Keeps the timeline's
 * hashtag uses and its engagement of the day in step.
 */
export async function applyTimelineSnapshot(manager: EntityManager, row: TimelineRow, occurredAt: string): Promise<'applied' | 'ignored'> {
  await lockTimeline(manager, row.id);
  const deleted: unknown[] = await manager.query('SELECT 1 FROM deleted_timelines WHERE id = $1', [row.id]);
  if (deleted.length > 0) return 'ignored';
  const [previous] = (await manager.query('SELECT revision, listed, views, likes_count AS "likesCount", comments_count AS "commentsCount" FROM timelines WHERE id = $1', [row.id])) as Array<{
    revision: string;
    listed: boolean;
    views: string;
    likesCount: number;
    commentsCount: number;
  }>;
  if (previous && BigInt(previous.revision) >= BigInt(row.revision)) return 'ignored';

  const engagement = engagementOf(row);
  await manager.query(
    `INSERT INTO timelines (id, ${COLUMNS.join(', ')}, creator_username)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
             COALESCE((SELECT username FROM users WHERE id = $2), ''))
     ON CONFLICT (id) DO UPDATE SET ${COLUMNS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, creator_username = EXCLUDED.creator_username`,
    [
      row.id, row.creatorId, row.listed, row.creatorName, row.title, row.description, row.hashtags, row.videoCount, row.duration, row.views, row.likesCount,
      row.commentsCount, row.activityScore, Math.log1p(engagement), row.lastActivityAt, row.createdAt, row.updatedAt, row.coverMediaId, row.revision, row.sensitive, row.coverAltText,
    ],
  );
  await syncHashtagUses(manager, { sourceType: 'timeline', sourceId: row.id, userId: row.creatorId, hashtags: row.hashtags, at: occurredAt });

  // What it gained since the snapshot before, counted on the day it happened. A timeline search
  // hears of for the first time brings all it has.
  const gained = engagement - (previous ? engagementOf({ views: Number(previous.views), likesCount: previous.likesCount, commentsCount: previous.commentsCount }) : 0);
  if (row.listed && gained > 0) {
    await manager.query(
      `INSERT INTO timeline_engagement (timeline_id, day, engagement) VALUES ($1, ($3::timestamptz AT TIME ZONE 'UTC')::date, $2)
       ON CONFLICT (timeline_id, day) DO UPDATE SET engagement = timeline_engagement.engagement + EXCLUDED.engagement`,
      [row.id, gained, occurredAt],
    );
  }
  return 'applied';
}

/** Drops a deleted timeline and remembers the deletion, so no later snapshot revives it. */
export async function forgetTimeline(manager: EntityManager, timelineId: string): Promise<void> {
  await lockTimeline(manager, timelineId);
  await manager.query('INSERT INTO deleted_timelines (id) VALUES ($1) ON CONFLICT DO NOTHING', [timelineId]);
  await dropHashtagUses(manager, 'timeline', timelineId);
  await manager.query('DELETE FROM timeline_engagement WHERE timeline_id = $1', [timelineId]);
  await manager.query('DELETE FROM timelines WHERE id = $1', [timelineId]);
}

/** The timelines read model follows TimelineSnapshot (every change) and TimelineDeleted. */
export const timelineEventHandlers = [
  on(TimelinesEvents.TimelineSnapshot, async (snapshot, meta, manager) => {
    const row = timelineRow(snapshot, meta.occurredAt);
    if (row) await applyTimelineSnapshot(manager, row, meta.occurredAt);
  }),
  on(TimelinesEvents.TimelineDeleted, async (event, _meta, manager) => {
    if (!isUuid(event.timelineId)) return;
    await forgetTimeline(manager, event.timelineId.toLowerCase());
  }),
];
