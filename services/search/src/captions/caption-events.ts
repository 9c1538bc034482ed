import { clipCodePoints, isUuid, on } from '@timeliner/platform';
import { CaptionEvents, MediaEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';

const LANGUAGE = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,4}$/;
/** A deleted video's tombstone outranks every revision. */
const FOREVER = '9223372036854775807';
const MAX_MS = 2_147_483_647;

async function dropCues(manager: EntityManager, mediaId: string, language?: string): Promise<void> {
  if (language === undefined) await manager.query(`DELETE FROM caption_cues WHERE media_id = $1`, [mediaId]);
  else await manager.query(`DELETE FROM caption_cues WHERE media_id = $1 AND language = $2`, [mediaId, language]);
}

/**
 * Media's caption tracks, as words with their times: a newer revision replaces the cues of that
 * video and language, a removal or the video's deletion drops them (and leaves a tombstone).
 */
export const captionEventHandlers = [
  on(CaptionEvents.CaptionsChanged, async (track, _meta, manager) => {
    if (!isUuid(track.mediaId) || !isUuid(track.timelineId) || !LANGUAGE.test(track.language) || track.language.length > 35 || track.revision <= 0n) return;
    const mediaId = track.mediaId.toLowerCase();
    const timelineId = track.timelineId.toLowerCase();
    const applied = (await manager.query(
      `INSERT INTO caption_tracks (media_id, language, timeline_id, revision, removed) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (media_id, language) DO UPDATE SET timeline_id = EXCLUDED.timeline_id, revision = EXCLUDED.revision, removed = EXCLUDED.removed
        WHERE caption_tracks.revision < EXCLUDED.revision
       RETURNING 1`,
      [mediaId, track.language, timelineId, track.revision.toString(), track.removed],
    )) as unknown[];
    if (applied.length === 0) return;
    await dropCues(manager, mediaId, track.language);
    if (track.removed) return;
    const cues = track.cues
      .map((cue, position) => ({ position, start: Math.min(cue.startMs, MAX_MS), end: Math.min(Math.max(cue.endMs, cue.startMs), MAX_MS), text: clipCodePoints(cue.text.trim(), 1000) }))
      .filter((cue) => cue.text !== '');
    if (cues.length === 0) return;
    await manager.query(
      `INSERT INTO caption_cues (media_id, language, position, timeline_id, start_ms, end_ms, text, document)
       SELECT $1, $2, c.position, $3, c.start_ms, c.end_ms, c.text, to_tsvector('simple', search.normalized(c.text))
       FROM unnest($4::int[], $5::int[], $6::int[], $7::text[]) AS c(position, start_ms, end_ms, text)`,
      [mediaId, track.language, timelineId, cues.map((c) => c.position), cues.map((c) => c.start), cues.map((c) => c.end), cues.map((c) => c.text)],
    );
  }),
  on(MediaEvents.MediaDeleted, async (media, _meta, manager) => {
    if (!isUuid(media.mediaId)) return;
    const mediaId = media.mediaId.toLowerCase();
    await manager.query(`UPDATE caption_tracks SET removed = true, revision = $2 WHERE media_id = $1`, [mediaId, FOREVER]);
    await dropCues(manager, mediaId);
  }),
];
