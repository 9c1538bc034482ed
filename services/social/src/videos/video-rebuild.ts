import { type EventBus, isUuid, type RebuildableReadModel, replayedMedia } from '@timeliner/platform';
import { MediaType, type ReplayedMedia } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { MediaKind } from './video.entity.js';
import { VideoRepository } from './video.repository.js';

const kindOf = (type: MediaType): MediaKind | null => (type === MediaType.VIDEO ? 'video' : type === MediaType.IMAGE ? 'image' : null);

/**
 * The videos read model (which videos and images exist, on which timeline) rebuilt from the media
 * service's replay (`read-model rebuild social --model media`), applied as UploadCompleted is
 * (video-events.ts): an item not known here is added, one known keeps its counters, and a
 * tombstone stays (a deletion is never undone by a replayed item). So images uploaded before this
 * service recorded them become reportable. An item the media service no longer has is forgotten
 * as MediaDeleted forgets it: a tombstone, its likes and comments gone.
 */
export function mediaReadModel(bus: EventBus): RebuildableReadModel<ReplayedMedia> {
  const model: RebuildableReadModel<ReplayedMedia> = {
    name: 'media',
    ...replayedMedia(bus),
    apply: (manager, media) => model.applyPage!(manager, [media]),
    async applyPage(manager, page) {
      const items = page.filter((m) => kindOf(m.mediaType) && isUuid(m.mediaId) && isUuid(m.timelineId));
      if (items.length === 0) return;
      // The type of an item never changes: the producer's corrects a row recorded before types were.
      await manager.query(
        `INSERT INTO videos (id, timeline_id, media_type)
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::varchar[])
         ON CONFLICT (id) DO UPDATE SET media_type = EXCLUDED.media_type
          WHERE NOT videos.deleted AND videos.media_type <> EXCLUDED.media_type`,
        [items.map((m) => m.mediaId.toLowerCase()), items.map((m) => m.timelineId.toLowerCase()), items.map((m) => kindOf(m.mediaType))],
      );
    },
    async localIds(manager, afterId, limit) {
      const rows = (await manager.query(
        'SELECT id FROM videos WHERE id > $1 AND NOT deleted ORDER BY id LIMIT $2',
        [afterId || '00000000-0000-0000-0000-000000000000', limit],
      )) as Array<{ id: string }>;
      return rows.map((row) => row.id);
    },
    async remove(manager, id) {
      await forgetItem(manager, id);
    },
  };
  return model;
}

/** As MediaDeleted: a tombstone, with the item's likes and comments gone (VideoRepository.forget). */
async function forgetItem(manager: EntityManager, id: string): Promise<void> {
  const [row] = (await manager.query('SELECT timeline_id AS "timelineId", media_type AS "mediaType" FROM videos WHERE id = $1 AND NOT deleted FOR UPDATE', [id])) as Array<{ timelineId: string; mediaType: MediaKind }>;
  if (row) await new VideoRepository(manager.connection).forget(manager, id, row.timelineId, row.mediaType);
}
