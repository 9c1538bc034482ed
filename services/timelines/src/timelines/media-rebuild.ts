import { clipCodePoints, type EventBus, isUuid, Outbox, type RebuildableReadModel, replayedMedia } from '@timeliner/platform';
import { MediaType, type ReplayedMedia } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { coverFactsOf, isCover, publishSnapshot, publishSnapshots } from './snapshot.js';

const CONTEXT = { requestId: 'read-model-rebuild' };

/**
 * The videos' short descriptions (media_alt_texts) rebuilt from the media service's replay
 * (`read-model rebuild timelines --model alt-texts`), applied as MediaAltTextChanged is
 * (media-events.ts): a text only over an older version (one written before the versions, 0,
 * only where there is none), and a new text of a cover publishes the timeline's snapshot, so the
 * feed, search and profile cards get their cover_alt_text. A video the media service no longer
 * has loses its text, as with MediaDeleted.
 */
export function altTextsReadModel(bus: EventBus): RebuildableReadModel<ReplayedMedia> {
  return {
    name: 'alt-texts',
    ...replayedMedia(bus),
    apply: (manager, media) => applyAltTexts(manager, [media]),
    applyPage: applyAltTexts,
    async localIds(manager, afterId, limit) {
      const rows = (await manager.query('SELECT media_id AS id FROM media_alt_texts WHERE media_id > $1 ORDER BY media_id LIMIT $2', [
        afterId || '00000000-0000-0000-0000-000000000000',
        limit,
      ])) as Array<{ id: string }>;
      return rows.map((row) => row.id);
    },
    async remove(manager, id) {
      await removeAltText(manager, id);
    },
  };
}

/**
 * Replayed texts written at once, as MediaAltTextChanged writes them one by one: the timelines
 * locked first (in id order, as the live handler locks its one), texts of timelines deleted
 * meanwhile skipped, each timeline whose cover got a new text announced once.
 */
async function applyAltTexts(manager: EntityManager, page: readonly ReplayedMedia[]): Promise<void> {
  // Only videos can be a cover; images keep their alt text in the media service alone. Never described: nothing to apply.
  const texts = page.filter((m) => m.mediaType === MediaType.VIDEO && isUuid(m.mediaId) && isUuid(m.timelineId) && (m.altText !== '' || m.altTextVersion > 0n));
  if (texts.length === 0) return;
  const timelineIds = [...new Set(texts.map((m) => m.timelineId.toLowerCase()))].sort();
  const locked = (await manager.query('SELECT id FROM timelines WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [timelineIds])) as Array<{ id: string }>;
  const existing = new Set(locked.map((row) => row.id));
  const kept = texts.filter((m) => existing.has(m.timelineId.toLowerCase()));
  if (kept.length === 0) return;
  const written = (await manager.query(
    `INSERT INTO media_alt_texts (media_id, timeline_id, alt_text, version)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::bigint[])
     ON CONFLICT (media_id) DO UPDATE SET alt_text = EXCLUDED.alt_text, version = EXCLUDED.version
      WHERE media_alt_texts.version < EXCLUDED.version
     RETURNING media_id AS "mediaId", timeline_id AS "timelineId"`,
    [kept.map((m) => m.mediaId.toLowerCase()), kept.map((m) => m.timelineId.toLowerCase()), kept.map((m) => clipCodePoints(m.altText, 1500)), kept.map((m) => m.altTextVersion.toString())],
  )) as Array<{ mediaId: string; timelineId: string }>;
  const covers = await coverFactsOf(manager, [...new Set(written.map((row) => row.timelineId))]);
  const announced = [...covers].filter(([timelineId, cover]) => written.some((row) => row.timelineId === timelineId && row.mediaId === cover.mediaId)).map(([timelineId]) => timelineId);
  await publishSnapshots(manager, Outbox, announced, CONTEXT);
}

/** A text whose video is gone: dropped, and the cover's snapshot published without it. */
async function removeAltText(manager: EntityManager, mediaId: string): Promise<void> {
  const [row] = (await manager.query('SELECT timeline_id AS "timelineId" FROM media_alt_texts WHERE media_id = $1', [mediaId])) as Array<{ timelineId: string }>;
  if (!row) return;
  await manager.query('SELECT 1 FROM timelines WHERE id = $1 FOR UPDATE', [row.timelineId]);
  const cover = await isCover(manager, row.timelineId, mediaId);
  await manager.query('DELETE FROM media_alt_texts WHERE media_id = $1', [mediaId]);
  if (cover) await publishSnapshot(manager, Outbox, row.timelineId, CONTEXT);
}
