import { on } from '@timeliner/platform';
import { MediaEvents, MediaType } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { isUuid } from '../ids.js';

/**
 * Forgets what people said about and liked in videos that are gone. Called with the videos' rows
 * updated first (which locks them), so it waits for any toggle or comment in flight and none
 * slips in afterwards: writers lock the video row before touching its likes and comments.
 */
async function forgetVideoSocial(manager: EntityManager, videoIds: string[]): Promise<void> {
  if (videoIds.length === 0) return;
  await manager.query('DELETE FROM video_likes WHERE video_id = ANY($1::uuid[])', [videoIds]);
  await manager.query('DELETE FROM video_comments WHERE video_id = ANY($1::uuid[])', [videoIds]);
}

/** A deleted timeline takes its videos with it (the media service may not announce each one). */
export async function forgetTimelineVideos(manager: EntityManager, timelineId: string): Promise<void> {
  const gone: Array<{ id: string }> = await manager.query(
    `WITH gone AS (UPDATE videos SET deleted = true, likes_count = 0, comments_count = 0 WHERE timeline_id = $1 AND NOT deleted RETURNING id)
     SELECT id FROM gone`,
    [timelineId],
  );
  await forgetVideoSocial(manager, gone.map((v) => v.id));
}

/**
 * The videos read model: which videos exist and on which timeline, from the media service's
 * events. Likes and comments are checked against it, and through its timeline, against access.
 * A deletion leaves a tombstone, so an upload announcement arriving after it does not bring the
 * video back; both are idempotent, so redelivery changes nothing.
 */
export const videoEventHandlers = [
  on(MediaEvents.UploadCompleted, async (upload, _meta, manager) => {
    if (upload.mediaType !== MediaType.VIDEO || !isUuid(upload.mediaId) || !isUuid(upload.timelineId)) return;
    await manager.query('INSERT INTO videos (id, timeline_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [upload.mediaId.toLowerCase(), upload.timelineId.toLowerCase()]);
  }),
  on(MediaEvents.MediaDeleted, async (media, _meta, manager) => {
    if (media.mediaType !== MediaType.VIDEO || !isUuid(media.mediaId) || !isUuid(media.timelineId)) return;
    const videoId = media.mediaId.toLowerCase();
    await manager.query(
      `INSERT INTO videos (id, timeline_id, deleted) VALUES ($1, $2, true)
       ON CONFLICT (id) DO UPDATE SET deleted = true, likes_count = 0, comments_count = 0`,
      [videoId, media.timelineId.toLowerCase()],
    );
    await forgetVideoSocial(manager, [videoId]);
  }),
];
