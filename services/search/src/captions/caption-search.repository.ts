import { readOnly } from '@timeliner/platform';
import type { DataSource } from 'typeorm';
import { TIMELINE_COLUMNS, type TextQuery, type TimelineHit } from '../search/search.repository.js';
import { publicCreatorSql } from '../users/private-account-sql.js';

/** The cue that best matches a query in one timeline: where in which video the words are said. */
export interface SpokenHit {
  timelineId: string;
  mediaId: string;
  language: string;
  startMs: number;
  endMs: number;
  text: string;
}

/** Cues ranked at most per query, as for timelines' own words. */
const MAX_RANKED_CUES = 500;

/**
 * Words spoken in videos (their captions). Only cues of listed timelines are answered: the query
 * joins `timelines` on `listed`, as every other search query reads listed timelines only.
 */
export class CaptionSearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The best matching cue of each timeline, best timelines first (at most `limit`). */
  async spoken(query: TextQuery, limit: number): Promise<SpokenHit[]> {
    const n = query.params.length;
    return (await readOnly(this.dataSource).query(
      `WITH q AS (SELECT ${query.sql} AS tsq),
       matches AS (SELECT c.timeline_id, c.media_id, c.language, c.start_ms, c.end_ms, c.text, ts_rank(c.document, q.tsq) AS score
                   FROM q, caption_cues c JOIN timelines t ON t.id = c.timeline_id AND t.listed AND ${publicCreatorSql('t')}
                   WHERE c.document @@ q.tsq LIMIT ${MAX_RANKED_CUES}),
       best AS (SELECT DISTINCT ON (timeline_id) * FROM matches ORDER BY timeline_id, score DESC, start_ms)
       SELECT timeline_id AS "timelineId", media_id AS "mediaId", language, start_ms AS "startMs", end_ms AS "endMs", text
       FROM best ORDER BY score DESC, timeline_id LIMIT $${n + 1}`,
      [...query.params, limit],
    )) as SpokenHit[];
  }

  /** Listed timelines by id, as search answers show them (those matched by their videos' words alone). */
  async timelines(ids: string[]): Promise<TimelineHit[]> {
    if (ids.length === 0) return [];
    return (await readOnly(this.dataSource).query(
      `SELECT ${TIMELINE_COLUMNS} FROM timelines t LEFT JOIN users u ON u.id = t.creator_id WHERE t.id = ANY($1::uuid[]) AND t.listed AND ${publicCreatorSql('t')}`,
      [ids],
    )) as TimelineHit[];
  }
}
