import { isUuid, on } from '@timeliner/platform';
import { MediaEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';

async function recountImages(manager: EntityManager, timelineId: string): Promise<void> {
  await manager.query('UPDATE timelines SET image_count = (SELECT count(*)::int FROM timeline_images WHERE timeline_id = $1) WHERE id = $1', [timelineId]);
}

/**
 * Image counts, from the media service's events (it owns the media): an image counts once it is
 * processed; a deletion uncounts it if it was counted. The per-image rows make both idempotent.
 */
export const imageEventHandlers = [
  on(MediaEvents.ImageProcessed, async (image, _meta, manager) => {
    if (!isUuid(image.mediaId) || !isUuid(image.timelineId)) return;
    const timelineId = image.timelineId.toLowerCase();
    const [timeline] = await manager.query('SELECT 1 FROM timelines WHERE id = $1 FOR UPDATE', [timelineId]);
    if (!timeline) return; // deleted meanwhile
    await manager.query('INSERT INTO timeline_images (media_id, timeline_id) VALUES ($1, $2) ON CONFLICT (media_id) DO NOTHING', [image.mediaId.toLowerCase(), timelineId]);
    await recountImages(manager, timelineId);
  }),
];

/** For the media service's MediaDeleted (handled with the videos'): uncounts an image that was counted. */
export async function uncountImage(manager: EntityManager, mediaId: string, timelineId: string): Promise<void> {
  const [removed] = (await manager.query('DELETE FROM timeline_images WHERE media_id = $1 RETURNING media_id', [mediaId])) as [unknown[], number];
  if (removed.length > 0) await recountImages(manager, timelineId);
}
