import type { DataSource, EntityManager } from 'typeorm';
import type { VideoCaption } from './caption.entity.js';

export type CaptionSummary = Pick<VideoCaption, 'mediaId' | 'language' | 'cueCount' | 'sourceFormat' | 'revision' | 'updatedAt'>;
export type NewCaption = Pick<VideoCaption, 'mediaId' | 'language' | 'timelineId' | 'sourceFormat' | 'vtt' | 'cueCount' | 'uploadedBy'>;

const SUMMARY = `media_id AS "mediaId", language, cue_count AS "cueCount", source_format AS "sourceFormat", revision::float8 AS revision, updated_at AS "updatedAt"`;

export class CaptionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A video's tracks, by language. */
  async list(mediaId: string): Promise<CaptionSummary[]> {
    return (await this.dataSource.query(`SELECT ${SUMMARY} FROM video_captions WHERE media_id = $1 ORDER BY language`, [mediaId])) as CaptionSummary[];
  }

  async count(manager: EntityManager, mediaId: string): Promise<number> {
    const [row] = (await manager.query(`SELECT count(*)::int AS n FROM video_captions WHERE media_id = $1`, [mediaId])) as Array<{ n: number }>;
    return row?.n ?? 0;
  }

  /** One track's WebVTT text. */
  async vtt(mediaId: string, language: string): Promise<{ vtt: string; revision: number; updatedAt: Date } | null> {
    const [row] = (await this.dataSource.query(
      `SELECT vtt, revision::float8 AS revision, updated_at AS "updatedAt" FROM video_captions WHERE media_id = $1 AND language = $2`,
      [mediaId, language],
    )) as Array<{ vtt: string; revision: number; updatedAt: Date }>;
    return row ?? null;
  }

  /** Adds or replaces the track; its new revision comes from the sequence. */
  async upsert(manager: EntityManager, caption: NewCaption): Promise<CaptionSummary> {
    const [row] = (await manager.query(
      `INSERT INTO video_captions (media_id, language, timeline_id, source_format, vtt, cue_count, revision, uploaded_by, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, nextval('video_caption_revision'), $7, now())
       ON CONFLICT (media_id, language) DO UPDATE SET timeline_id = EXCLUDED.timeline_id, source_format = EXCLUDED.source_format, vtt = EXCLUDED.vtt,
         cue_count = EXCLUDED.cue_count, revision = EXCLUDED.revision, uploaded_by = EXCLUDED.uploaded_by, updated_at = now()
       RETURNING ${SUMMARY}`,
      [caption.mediaId, caption.language, caption.timelineId, caption.sourceFormat, caption.vtt, caption.cueCount, caption.uploadedBy],
    )) as CaptionSummary[];
    return row!;
  }

  /** Removes the track; the revision its removal is announced with, or null when there was none. */
  async remove(manager: EntityManager, mediaId: string, language: string): Promise<number | null> {
    const rows = (await manager.query(
      `WITH gone AS (DELETE FROM video_captions WHERE media_id = $1 AND language = $2 RETURNING 1) SELECT nextval('video_caption_revision')::float8 AS revision FROM gone`,
      [mediaId, language],
    )) as Array<{ revision: number }>;
    return rows[0]?.revision ?? null;
  }
}
