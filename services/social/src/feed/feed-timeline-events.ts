import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { afterCommit, clipCodePoints, isUuid, on } from '@timeliner/platform';
import { type TimelineSnapshot, TimelineStatus, TimelinesEvents, Visibility } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { recordActivity } from '../activity/activity-recorder.js';
import { setFeedKey } from '../feed-index/feed-keys.js';
import { lockFeedTimeline } from '../feed-index/feed-timeline-lock.js';
import { deliverToInboxes, withdrawFromInboxes } from '../feed-index/following-inbox.js';
import { forYouListingChanged } from '../feed-index/listing-changed.js';

/** The feed_timelines row a snapshot describes, as the columns want it. */
export interface FeedTimelineRow {
  id: string;
  creatorId: string;
  creatorName: string;
  title: string;
  description: string;
  visibility: 'private' | 'unlisted' | 'public';
  status: 'draft' | 'processing' | 'published';
  videoCount: number;
  duration: number;
  /** bigint, as text. */
  views: string;
  likesCount: number;
  commentsCount: number;
  activityScore: number;
  scoreBand: number;
  /** ISO-8601 with microseconds (Postgres' precision), UTC. */
  lastActivityAt: string;
  createdAt: string;
  updatedAt: string;
  coverMediaId: string | null;
  /** The cover's short description; null when it has none. */
  coverAltText: string | null;
  /** bigint, as text. */
  revision: string;
  sensitive: boolean;
}

const INT32_MAX = 2_147_483_647;
const count = (n: number) => (Number.isFinite(n) ? Math.min(Math.max(0, Math.trunc(n)), INT32_MAX) : 0);

/** The feed's first sort key, as the timelines service computes it: floor(score × 10). */
export function scoreBandOf(score: number): number {
  if (!Number.isFinite(score)) return 0;
  return Math.min(Math.max(Math.floor(score * 10), -INT32_MAX), INT32_MAX);
}

// Years 1 to 9999: what toISOString writes as YYYY and Postgres takes without question.
const MIN_SECONDS = -62_135_596_800n;
const MAX_SECONDS = 253_402_300_799n;

/** A protobuf Timestamp as ISO-8601 text to the microsecond; undefined when absent or out of range. */
export function timestampText(ts: Timestamp | undefined): string | undefined {
  if (!ts) return undefined;
  if (ts.seconds < MIN_SECONDS || ts.seconds > MAX_SECONDS || !Number.isInteger(ts.nanos) || ts.nanos < 0 || ts.nanos >= 1_000_000_000) return undefined;
  const seconds = new Date(Number(ts.seconds) * 1000).toISOString().slice(0, 19);
  return `${seconds}.${String(Math.floor(ts.nanos / 1000)).padStart(6, '0')}Z`;
}

const visibilityOf = (v: Visibility): FeedTimelineRow['visibility'] =>
  v === Visibility.PUBLIC ? 'public' : v === Visibility.UNLISTED ? 'unlisted' : 'private';
const statusOf = (s: TimelineStatus): FeedTimelineRow['status'] =>
  s === TimelineStatus.PUBLISHED ? 'published' : s === TimelineStatus.PROCESSING ? 'processing' : 'draft';

/**
 * The row a snapshot describes; null for a snapshot that cannot be one (malformed ids, no
 * revision). `occurredAt` (the event's time) stands in for a missing time.
 */
export function feedTimelineRow(snapshot: TimelineSnapshot, occurredAt: string): FeedTimelineRow | null {
  if (!isUuid(snapshot.timelineId) || !isUuid(snapshot.creatorId) || snapshot.revision <= 0n) return null;
  const fallback = new Date(occurredAt).toISOString();
  const createdAt = timestampText(snapshot.createdAt) ?? fallback;
  const activityScore = Number.isFinite(snapshot.activityScore) ? snapshot.activityScore : 0;
  return {
    id: snapshot.timelineId.toLowerCase(),
    creatorId: snapshot.creatorId.toLowerCase(),
    creatorName: clipCodePoints(snapshot.creatorName, 100),
    title: clipCodePoints(snapshot.title, 200),
    description: clipCodePoints(snapshot.description, 5000),
    visibility: visibilityOf(snapshot.visibility),
    status: statusOf(snapshot.status),
    videoCount: count(snapshot.videoCount),
    duration: count(snapshot.duration),
    views: (snapshot.views < 0n ? 0n : snapshot.views).toString(),
    likesCount: count(snapshot.likesCount),
    commentsCount: count(snapshot.commentsCount),
    activityScore,
    scoreBand: scoreBandOf(activityScore),
    lastActivityAt: timestampText(snapshot.lastActivityAt) ?? createdAt,
    createdAt,
    updatedAt: timestampText(snapshot.updatedAt) ?? createdAt,
    coverMediaId: isUuid(snapshot.coverMediaId) ? snapshot.coverMediaId.toLowerCase() : null,
    coverAltText: isUuid(snapshot.coverMediaId) ? clipCodePoints(snapshot.coverAltText, 1500) || null : null,
    revision: snapshot.revision.toString(),
    sensitive: snapshot.sensitive === true,
  };
}

/** Columns a newer snapshot overwrites; the sort key (score_band, last_activity_at) goes through setFeedKey. */
const OVERWRITTEN = [
  'creator_id', 'creator_name', 'title', 'description', 'visibility', 'status', 'video_count', 'duration', 'views', 'likes_count',
  'comments_count', 'activity_score', 'created_at', 'updated_at', 'cover_media_id', 'revision', 'sensitive', 'cover_alt_text',
];

/**
 * Applies a snapshot: the row with the highest revision wins, so a redelivered, late or
 * overtaken snapshot changes nothing, and one for a deleted timeline never brings it back. A new
 * row is inserted with its key; an existing row's key changes only through setFeedKey, which
 * keeps the replaced key for readers paging the feed.
 */
export async function applyTimelineSnapshot(manager: EntityManager, row: FeedTimelineRow): Promise<'inserted' | 'updated' | 'listed' | 'ignored'> {
  await lockFeedTimeline(manager, row.id);
  const deleted: unknown[] = await manager.query('SELECT 1 FROM deleted_timelines WHERE id = $1', [row.id]);
  if (deleted.length > 0) return 'ignored';
  const [before] = (await manager.query(`SELECT creator_id AS "creatorId", visibility, status FROM feed_timelines WHERE id = $1`, [row.id])) as Array<
    Pick<FeedTimelineRow, 'creatorId' | 'visibility' | 'status'>
  >;
  const applied = (await manager.query(
    `INSERT INTO feed_timelines (id, creator_id, creator_name, title, description, visibility, status, video_count, duration, views, likes_count,
                                 comments_count, activity_score, score_band, last_activity_at, created_at, updated_at, cover_media_id, revision, sensitive, cover_alt_text, key_changed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, clock_timestamp())
     ON CONFLICT (id) DO UPDATE SET ${OVERWRITTEN.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
      WHERE feed_timelines.revision < EXCLUDED.revision
     RETURNING (xmax = 0) AS inserted`,
    [
      row.id, row.creatorId, row.creatorName, row.title, row.description, row.visibility, row.status, row.videoCount, row.duration, row.views, row.likesCount,
      row.commentsCount, row.activityScore, row.scoreBand, row.lastActivityAt, row.createdAt, row.updatedAt, row.coverMediaId, row.revision, row.sensitive, row.coverAltText,
    ],
  )) as Array<{ inserted: boolean }>;
  const [result] = applied;
  if (!result) return 'ignored';
  if (!before || before.creatorId !== row.creatorId || before.visibility !== row.visibility || before.status !== row.status) {
    await syncTimelineInboxes(manager, row, before);
  }
  if (result.inserted) return 'inserted';
  await setFeedKey(manager, 'timeline', row.id, row.scoreBand, row.lastActivityAt);
  const listed = (t: Pick<FeedTimelineRow, 'visibility' | 'status'>) => t.visibility === 'public' && t.status === 'published';
  return !(before && listed(before)) && listed(row) ? 'listed' : 'updated';
}

/**
 * A page of rows at once, as applyTimelineSnapshot takes them one by one (a rebuild's page): the
 * timelines' feed locks in id order, one multi-row upsert that skips deleted timelines and takes a
 * row over a lower revision only, then, row by row for those written, the inboxes (a new row, or a
 * changed creator, visibility or status) and the key of an updated row. Answers the rows written
 * and whether each was new.
 */
export async function applyTimelineSnapshots(manager: EntityManager, incoming: readonly FeedTimelineRow[]): Promise<Array<{ row: FeedTimelineRow; inserted: boolean }>> {
  const byId = new Map<string, FeedTimelineRow>();
  for (const row of incoming) {
    const held = byId.get(row.id);
    if (!held || BigInt(held.revision) < BigInt(row.revision)) byId.set(row.id, row);
  }
  if (byId.size === 0) return [];
  const ids = [...byId.keys()].sort();
  const column = <T>(f: (row: FeedTimelineRow) => T) => ids.map((id) => f(byId.get(id)!));
  // lockFeedTimeline's lock, for the whole page, in id order.
  await manager.query(`SELECT pg_advisory_xact_lock(hashtext('feed_timeline:' || id)) FROM unnest($1::text[]) AS id ORDER BY id`, [ids]);
  const written = (await manager.query(
    `WITH incoming AS (
       SELECT x.* FROM unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::varchar[], $5::varchar[], $6::varchar[], $7::varchar[], $8::int[], $9::int[], $10::bigint[],
                              $11::int[], $12::int[], $13::float8[], $14::int[], $15::timestamptz[], $16::timestamptz[], $17::timestamptz[], $18::uuid[], $19::bigint[], $20::boolean[], $21::varchar[])
         AS x(id, creator_id, creator_name, title, description, visibility, status, video_count, duration, views, likes_count,
              comments_count, activity_score, score_band, last_activity_at, created_at, updated_at, cover_media_id, revision, sensitive, cover_alt_text)
        WHERE NOT EXISTS (SELECT 1 FROM deleted_timelines d WHERE d.id = x.id)
     ), before AS (
       SELECT f.id, f.creator_id, f.visibility, f.status FROM feed_timelines f JOIN incoming i ON i.id = f.id
     ), written AS (
       INSERT INTO feed_timelines (id, creator_id, creator_name, title, description, visibility, status, video_count, duration, views, likes_count,
                                   comments_count, activity_score, score_band, last_activity_at, created_at, updated_at, cover_media_id, revision, sensitive, cover_alt_text, key_changed_at)
       SELECT *, clock_timestamp() FROM incoming ORDER BY id
       ON CONFLICT (id) DO UPDATE SET ${OVERWRITTEN.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
        WHERE feed_timelines.revision < EXCLUDED.revision
       RETURNING id, (xmax = 0) AS inserted)
     SELECT w.id, w.inserted, b.creator_id AS "creatorId", b.visibility, b.status FROM written w LEFT JOIN before b ON b.id = w.id ORDER BY w.id`,
    [
      ids, column((r) => r.creatorId), column((r) => r.creatorName), column((r) => r.title), column((r) => r.description), column((r) => r.visibility),
      column((r) => r.status), column((r) => r.videoCount), column((r) => r.duration), column((r) => r.views), column((r) => r.likesCount),
      column((r) => r.commentsCount), column((r) => r.activityScore), column((r) => r.scoreBand), column((r) => r.lastActivityAt), column((r) => r.createdAt),
      column((r) => r.updatedAt), column((r) => r.coverMediaId), column((r) => r.revision), column((r) => r.sensitive),
      column((r) => r.coverAltText),
    ],
  )) as Array<{ id: string; inserted: boolean; creatorId: string | null; visibility: FeedTimelineRow['visibility'] | null; status: FeedTimelineRow['status'] | null }>;
  const applied: Array<{ row: FeedTimelineRow; inserted: boolean }> = [];
  for (const result of written) {
    const row = byId.get(result.id)!;
    const before = result.creatorId ? { creatorId: result.creatorId, visibility: result.visibility!, status: result.status! } : undefined;
    if (!before || before.creatorId !== row.creatorId || before.visibility !== row.visibility || before.status !== row.status) {
      await syncTimelineInboxes(manager, row, before);
    }
    if (!result.inserted) await setFeedKey(manager, 'timeline', row.id, row.scoreBand, row.lastActivityAt);
    applied.push({ row, inserted: result.inserted });
  }
  return applied;
}

/**
 * The following tab's inboxes after a timeline's creator, visibility or status changed: a public
 * published timeline is in its creator's and their followers' inboxes, another published one in
 * its creator's only, an unpublished one in none.
 */
async function syncTimelineInboxes(manager: EntityManager, row: FeedTimelineRow, before: Pick<FeedTimelineRow, 'creatorId'> | undefined): Promise<void> {
  if (before && before.creatorId !== row.creatorId) await withdrawFromInboxes(manager, 'timeline', row.id);
  if (row.status !== 'published') return withdrawFromInboxes(manager, 'timeline', row.id);
  const item = { type: 'timeline' as const, id: row.id, authorId: row.creatorId, at: row.createdAt };
  if (row.visibility === 'public') return deliverToInboxes(manager, item, { followers: true });
  await withdrawFromInboxes(manager, 'timeline', row.id, { keepAuthor: true });
  await deliverToInboxes(manager, item, { followers: false });
}

/** Drops a deleted timeline's feed row and remembers the deletion, so no later snapshot revives it. */
export async function forgetFeedTimeline(manager: EntityManager, timelineId: string): Promise<void> {
  await lockFeedTimeline(manager, timelineId);
  await withdrawFromInboxes(manager, 'timeline', timelineId);
  await manager.query('INSERT INTO deleted_timelines (id) VALUES ($1) ON CONFLICT DO NOTHING', [timelineId]);
  await manager.query('DELETE FROM feed_timelines WHERE id = $1', [timelineId]);
}

/**
 * The feed_timelines read model follows the timelines service's TimelineSnapshot events (see
 * applyTimelineSnapshot), and a timeline's first snapshot records its created_timeline activity; TimelineDeleted is handled in timelines/timeline-events.ts (one handler
 * per event in a consumer group), which calls forgetFeedTimeline.
 */
export const feedTimelineEventHandlers = [
  on(TimelinesEvents.TimelineSnapshot, async (snapshot, meta, manager) => {
    const row = feedTimelineRow(snapshot, meta.occurredAt);
    if (!row) return;
    const applied = await applyTimelineSnapshot(manager, row);
    // The first snapshot of a timeline (its row is new; a deleted one never comes back) is its
    // creator's created_timeline activity, dated when the timeline was made.
    if (applied === 'inserted') {
      await recordActivity(manager, { sourceEventId: meta.id, userId: row.creatorId, activityType: 'created_timeline', targetType: 'timeline', targetId: row.id, createdAt: row.createdAt });
    }
    // Newly public and published: it may rank in for-you from now on.
    if ((applied === 'inserted' || applied === 'listed') && row.visibility === 'public' && row.status === 'published') afterCommit(manager, forYouListingChanged);
  }),
];
