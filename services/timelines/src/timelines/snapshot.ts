import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { type Timestamp, TimestampSchema } from '@bufbuild/protobuf/wkt';
import { type EventMeta, type EventWriter, inTransaction, type OutboxContext } from '@timeliner/platform';
import { TimelinesEvents, type TimelineSnapshotSchema } from '@timeliner/proto';
import type { DataSource, EntityManager } from 'typeorm';
import { protoStatus, protoVisibility } from '../proto-enums.js';
import type { TimelineStatus, Visibility } from './timeline.entity.js';

/** What publishSnapshot needs of an EventWriter; event handlers pass `Outbox` (the relay polls). */
export type SnapshotWriter = Pick<EventWriter, 'add'>;

/** A Postgres time in microseconds since the epoch (exact, as a string) as a protobuf Timestamp. */
export function timestampFromMicros(micros: string | bigint): Timestamp {
  const us = BigInt(micros);
  let seconds = us / 1_000_000n;
  let rest = us % 1_000_000n;
  if (rest < 0n) {
    // Before 1970: nanos must stay positive.
    seconds -= 1n;
    rest += 1_000_000n;
  }
  return create(TimestampSchema, { seconds, nanos: Number(rest) * 1_000 });
}

/** The column as exact microseconds since the epoch. */
const micros = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint::text AS ${column}_us`;

export interface SnapshotRow {
  id: string;
  creator_id: string;
  creator_name: string;
  title: string;
  description: string | null;
  visibility: Visibility;
  status: TimelineStatus;
  video_count: number;
  duration: number;
  views: string;
  likes_count: number;
  comments_count: number;
  activity_score: number;
  revision: string;
  last_activity_at_us: string;
  created_at_us: string;
  updated_at_us: string;
  sensitive: boolean;
}

/**
 * Writes a TimelineSnapshot of the timeline as it stands in this transaction: the whole of what
 * other services show of it, with a revision one above the last, so a consumer keeps the
 * snapshot with the highest revision whatever order they arrive in.
 *
 * Call it in the transaction that changed something the snapshot carries, after the change (the
 * transactional outbox: the snapshot exists exactly when the change committed). Bumping the
 * revision takes the row's lock, so two transactions changing one timeline number their snapshots
 * in commit order and the later one carries both changes. Returns false, writing nothing, when
 * the timeline does not exist (deleted meanwhile).
 */
export async function publishSnapshot(manager: EntityManager, events: SnapshotWriter, timelineId: string, context: OutboxContext = {}): Promise<boolean> {
  // Wrapped in a CTE so the driver answers with the returned rows, as for a SELECT.
  const [row] = (await manager.query(
    `WITH bumped AS (
       UPDATE timelines SET revision = revision + 1 WHERE id = $1
       RETURNING ${SNAPSHOT_COLUMNS})
     SELECT * FROM bumped`,
    [timelineId],
  )) as SnapshotRow[];
  if (!row) return false;
  // A statement of its own, after the lock: it sees every video change committed before it.
  const [cover] = (await manager.query(coverSql, [row.id])) as Array<{ media_id: string; alt_text: string | null }>;
  await events.add(manager, TimelinesEvents.TimelineSnapshot, snapshotOf(row, cover?.media_id ?? '', cover?.alt_text ?? ''), context);
  return true;
}

/** The columns a snapshot is made of, as SnapshotRow names them. */
export const SNAPSHOT_COLUMNS = `id, creator_id, creator_name, title, description, visibility, status, video_count, duration, views::text AS views,
  likes_count, comments_count, activity_score, revision::text AS revision, sensitive,
  ${micros('last_activity_at')}, ${micros('created_at')}, ${micros('updated_at')}`;

/** The snapshot of a timeline row (SNAPSHOT_COLUMNS), its cover and the cover's description. */
export function snapshotOf(row: SnapshotRow, coverMediaId: string, coverAltText = ''): MessageInitShape<typeof TimelineSnapshotSchema> {
  return {
    timelineId: row.id,
    creatorId: row.creator_id,
    creatorName: row.creator_name,
    title: row.title,
    description: row.description ?? '',
    visibility: protoVisibility(row.visibility),
    status: protoStatus(row.status),
    videoCount: row.video_count,
    duration: row.duration,
    views: BigInt(row.views),
    likesCount: row.likes_count,
    commentsCount: row.comments_count,
    activityScore: row.activity_score,
    lastActivityAt: timestampFromMicros(row.last_activity_at_us),
    createdAt: timestampFromMicros(row.created_at_us),
    updatedAt: timestampFromMicros(row.updated_at_us),
    coverMediaId,
    revision: BigInt(row.revision),
    sensitive: row.sensitive,
    coverAltText: coverMediaId ? coverAltText : '',
  };
}

/**
 * The cover: the first counted (processed) video in the media service's order. That order is
 * (position, upload time, id); positions are those of the last MediaReordered (a video it did not
 * name, uploaded later, has position 0 as in the media service), and the time a video was first
 * counted stands in for its upload time. With its short description (media_alt_texts), when it has one.
 */
const coverSql = `
  SELECT v.media_id, a.alt_text FROM timeline_videos v JOIN timelines t ON t.id = v.timeline_id
    LEFT JOIN media_alt_texts a ON a.media_id = v.media_id
   WHERE v.timeline_id = $1
   ORDER BY coalesce(array_position(t.video_order, v.media_id) - 1, 0), v.added_at, v.media_id
   LIMIT 1`;

/**
 * The cover of each of these timelines (same order as coverSql), for the thumbnail the studio
 * cards show; timelines without a counted video are absent.
 */
export async function coversOf(manager: EntityManager, timelineIds: readonly string[]): Promise<Map<string, string>> {
  const covers = await coverFactsOf(manager, timelineIds);
  return new Map([...covers].map(([timelineId, cover]) => [timelineId, cover.mediaId]));
}

/** A timeline's cover and its short description ('' when it has none), as the snapshot carries them. */
export interface CoverFacts {
  mediaId: string;
  altText: string;
}

/** The cover of each of these timelines and its description (a replay's snapshots); timelines without a counted video are absent. */
export async function coverFactsOf(manager: EntityManager, timelineIds: readonly string[]): Promise<Map<string, CoverFacts>> {
  if (timelineIds.length === 0) return new Map();
  const rows = (await manager.query(
    `SELECT DISTINCT ON (v.timeline_id) v.timeline_id, v.media_id, a.alt_text FROM timeline_videos v JOIN timelines t ON t.id = v.timeline_id
       LEFT JOIN media_alt_texts a ON a.media_id = v.media_id
      WHERE v.timeline_id = ANY($1::uuid[])
      ORDER BY v.timeline_id, coalesce(array_position(t.video_order, v.media_id) - 1, 0), v.added_at, v.media_id`,
    [timelineIds],
  )) as Array<{ timeline_id: string; media_id: string; alt_text: string | null }>;
  return new Map(rows.map((row) => [row.timeline_id, { mediaId: row.media_id, altText: row.alt_text ?? '' }]));
}

/** Whether this video is its timeline's cover now (coverSql). */
export async function isCover(manager: EntityManager, timelineId: string, mediaId: string): Promise<boolean> {
  const [cover] = (await manager.query(coverSql, [timelineId])) as Array<{ media_id: string }>;
  return cover?.media_id === mediaId;
}

/** The context of a snapshot an event caused: that event's actor and request. */
export const snapshotContext = (meta: EventMeta): OutboxContext => ({
  ...(meta.actorUserId ? { actorUserId: meta.actorUserId } : {}),
  requestId: meta.requestId ?? meta.id,
});

/** Snapshots of several timelines (a change that touched them all, as a rename), one each. */
export async function publishSnapshots(manager: EntityManager, events: SnapshotWriter, timelineIds: Iterable<string>, context: OutboxContext = {}): Promise<void> {
  // In id order, so two such transactions lock the rows in the same order.
  for (const id of [...new Set(timelineIds)].sort()) await publishSnapshot(manager, events, id, context);
}

/**
 * Timelines that have never had a snapshot (revision 0: made before snapshots existed) get one,
 * in batches, so the other services' read models hold every timeline. Replicas share the work:
 * each batch takes rows no other is holding. Returns how many were published.
 */
export async function backfillSnapshots(dataSource: DataSource, events: EventWriter, batch = 200): Promise<number> {
  let published = 0;
  for (;;) {
    const done = await inTransaction(dataSource, async (manager) => {
      const rows = (await manager.query(`SELECT id FROM timelines WHERE revision = 0 ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`, [batch])) as Array<{ id: string }>;
      for (const { id } of rows) await publishSnapshot(manager, events, id);
      return rows.length;
    });
    published += done;
    if (done < batch) return published;
  }
}
