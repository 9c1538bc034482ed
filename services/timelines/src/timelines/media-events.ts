import { clipCodePoints, type EventMeta, idOf, isUuid, on, Outbox } from '@timeliner/platform';
import { MediaEvents, MediaType } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { downloadEventHandlers } from '../analytics/download-events.js';
import { imageEventHandlers, uncountImage } from './image-events.js';
import { refreshActivity } from './activity.js';
import { isCover, publishSnapshot, snapshotContext } from './snapshot.js';

/** video_count and duration (whole seconds) from the counted videos, then the activity score and the snapshot. */
async function recount(manager: EntityManager, timelineId: string, meta: EventMeta): Promise<void> {
  await manager.query(
    `UPDATE timelines t SET video_count = v.n, duration = v.seconds
       FROM (SELECT count(*)::int AS n, round(coalesce(sum(duration), 0))::int AS seconds FROM timeline_videos WHERE timeline_id = $1) v
      WHERE t.id = $1`,
    [timelineId],
  );
  await refreshActivity(manager, timelineId);
  await publishSnapshot(manager, Outbox, timelineId, snapshotContext(meta));
}

/**
 * Video counts and total duration, from the media service's events (it owns the media). A video
 * counts once it is processed (playable); it may be announced again when more renditions are
 * ready (its duration is then updated, not added). A deletion uncounts it if it was counted. The
 * inbox drops redelivered events; the per-video rows make the rest idempotent.
 *
 * The order of the videos (MediaReordered) is kept only to know the cover, the first counted video
 * in that order, which the timeline's snapshot carries (snapshot.ts). So are the videos' short
 * descriptions (MediaAltTextChanged, the highest version wins), whether or not the video is
 * processed yet: the snapshot carries its cover's (cover_alt_text), and a new description of the
 * cover publishes one.
 */
export const mediaEventHandlers = [
  on(MediaEvents.VideoProcessed, async (video, meta, manager) => {
    if (!isUuid(video.mediaId) || !isUuid(video.timelineId)) return;
    const timelineId = video.timelineId.toLowerCase();
    const [timeline] = await manager.query('SELECT 1 FROM timelines WHERE id = $1 FOR UPDATE', [timelineId]);
    if (!timeline) return; // deleted meanwhile
    const duration = Number.isFinite(video.duration) && video.duration > 0 ? video.duration : 0;
    const inserted: unknown[] = await manager.query(
      `INSERT INTO timeline_videos (media_id, timeline_id, duration) VALUES ($1, $2, $3)
       ON CONFLICT (media_id) DO UPDATE SET duration = EXCLUDED.duration
       RETURNING (xmax = 0) AS inserted`,
      [video.mediaId.toLowerCase(), timelineId, duration],
    );
    if ((inserted[0] as { inserted?: boolean } | undefined)?.inserted) {
      await manager.query('UPDATE timelines SET last_content_added_at = greatest(last_content_added_at, $2::timestamptz) WHERE id = $1', [timelineId, new Date(meta.occurredAt)]);
    }
    await recount(manager, timelineId, meta);
  }),
  on(MediaEvents.MediaDeleted, async (media, meta, manager) => {
    if (!isUuid(media.mediaId) || !isUuid(media.timelineId)) return;
    const timelineId = media.timelineId.toLowerCase();
    const [timeline] = await manager.query('SELECT 1 FROM timelines WHERE id = $1 FOR UPDATE', [timelineId]);
    // DELETE ... RETURNING answers [rows, count] through EntityManager.query.
    const [removed] = (await manager.query('DELETE FROM timeline_videos WHERE media_id = $1 RETURNING media_id', [media.mediaId.toLowerCase()])) as [unknown[], number];
    if (timeline && removed.length > 0) await recount(manager, timelineId, meta);
    if (timeline) await uncountImage(manager, media.mediaId.toLowerCase(), timelineId);
    await manager.query('DELETE FROM media_alt_texts WHERE media_id = $1', [media.mediaId.toLowerCase()]);
  }),
  on(MediaEvents.MediaAltTextChanged, async (change, meta, manager) => {
    // Only videos can be a cover; images keep their alt text in the media service alone.
    if (change.mediaType !== MediaType.VIDEO || !isUuid(change.mediaId) || !isUuid(change.timelineId)) return;
    const timelineId = change.timelineId.toLowerCase();
    const mediaId = change.mediaId.toLowerCase();
    const [timeline] = await manager.query('SELECT 1 FROM timelines WHERE id = $1 FOR UPDATE', [timelineId]);
    if (!timeline) return; // deleted meanwhile
    const written = (await manager.query(
      `INSERT INTO media_alt_texts (media_id, timeline_id, alt_text, version) VALUES ($1, $2, $3, $4)
       ON CONFLICT (media_id) DO UPDATE SET alt_text = EXCLUDED.alt_text, version = EXCLUDED.version
        WHERE media_alt_texts.version < EXCLUDED.version
       RETURNING media_id`,
      [mediaId, timelineId, clipCodePoints(change.altText, 1500), change.version.toString()],
    )) as unknown[];
    if (written.length > 0 && (await isCover(manager, timelineId, mediaId))) await publishSnapshot(manager, Outbox, timelineId, snapshotContext(meta));
  }),
  on(MediaEvents.MediaReordered, async (order, meta, manager) => {
    const timelineId = idOf(order.timelineId);
    if (!timelineId) return;
    const ids = order.mediaIds.filter(isUuid).map((id) => id.toLowerCase());
    // The media service announces the whole order each time: the last one applied wins.
    const [, changed] = (await manager.query('UPDATE timelines SET video_order = $2::uuid[] WHERE id = $1', [timelineId, ids])) as [unknown, number];
    if (changed > 0) await publishSnapshot(manager, Outbox, timelineId, snapshotContext(meta));
  }),
  ...imageEventHandlers,
  // Downloads of the timeline's exports, for its analytics.
  ...downloadEventHandlers,
];
