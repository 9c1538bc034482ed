import { readOnly } from '@timeliner/platform';
import type { DataSource } from 'typeorm';
import type { ParsedQuery } from '../text/search-query.js';
import { hashtagShownSql, personShownSql, timelineShownSql } from './search-filters.js';
import { publicHashtagUsesSql, seenDespitePrivacySql } from '../users/private-account-sql.js';

/** A timeline as the search answers show it, straight from the read model. */
export interface TimelineHit {
  id: string;
  title: string;
  description: string;
  hashtags: string[];
  videoCount: number;
  duration: number;
  creatorId: string;
  creatorName: string;
  creatorUsername: string;
  creatorDisplayName: string | null;
  creatorAvatar: string | null;
  views: string;
  likesCount: number;
  commentsCount: number;
  activityScore: number;
  lastActivityAt: string;
  createdAt: string;
  updatedAt: string;
  coverMediaId: string | null;
  coverAltText: string | null;
  sensitive: boolean;
}

export interface UserHit {
  id: string;
  username: string;
  displayName: string;
  bio: string;
  avatar: string | null;
  isPrivate: boolean;
  followersCount: number;
}

export interface HashtagHit {
  name: string;
  usageCount: number;
}

/**
 * A compiled text query: the SQL of a tsquery (over `$1`, `$2`) and its parameters, or null when
 * the text holds no word to look for.
 */
export interface TextQuery {
  sql: string;
  params: string[];
  /** Matches ranked at most (see MAX_RANKED). */
  rankedAtMost: number;
}

/** Known words a query word may be widened to. */
const SIMILAR_WORDS = 3;
/** Similar words kept must be at least this close to the most similar one: "suprman" is Superman, not Batman too. */
const CLOSE_TO_BEST = 0.9;
/**
 * Matches ranked per query at most: ranking reads every match, so a query matching a large share
 * of the index (a two-letter prefix) ranks the first this many found instead of all of them.
 */
const MAX_RANKED = 500;
/** The same while a word is being typed: its prefix matches widely, and type-ahead must be quick. */
const MAX_RANKED_TYPING = 200;
/** People or hashtags merely like the text, at most (they are there for typos). */
const MAX_SIMILAR = 100;
/** Text shorter than this is taken as typed when people and hashtags are looked for by trigrams. */
const MIN_TYPO_LENGTH = 4;
/**
 * Query words shorter than this are taken as typed: a typo in "at" is another word. From 3 letters
 * a word matching nothing is widened, each word on its own ("sumer trp" → summer, trip): by
 * trigrams from 4 letters, else to the known words one edit away (`search.similar_words`).
 */
const MIN_WIDENED_LENGTH = 3;
/** A prefix shorter than this is taken as a whole word: "s:*" would match half the index. */
const MIN_PREFIX_LENGTH = 2;

/** A lexeme inside to_tsquery's syntax. */
const lexeme = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

export const TIMELINE_COLUMNS = `t.id, t.title, t.description, t.hashtags, t.video_count AS "videoCount", t.duration, t.creator_id AS "creatorId", t.creator_name AS "creatorName",
  t.creator_username AS "creatorUsername", u.display_name AS "creatorDisplayName", u.avatar AS "creatorAvatar", t.views, t.likes_count AS "likesCount",
  t.comments_count AS "commentsCount", t.activity_score AS "activityScore",
  to_char(t.last_activity_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastActivityAt",
  to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  to_char(t.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt", t.cover_media_id AS "coverMediaId",
  t.cover_alt_text AS "coverAltText", t.sensitive`;

/** Escapes LIKE's wildcards in an SQL text expression. */
const likePrefix = (expr: string) => `replace(replace(replace(${expr}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;

/**
 * The search queries. Everything here reads listed timelines only (`t.listed`): the read model
 * keeps no words of any other, and no query asks for them.
 */
export class SearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Compiles a parsed query: words matched as typed when some listed timeline has them, else
   * widened to the known words most like them (`suprman` → `superman`, `trp` → `trip`), each word
   * on its own; the last word as a prefix (`super` → `superman`, or `suprm` → `superman` by word
   * similarity).
   */
  async compile(query: ParsedQuery): Promise<TextQuery | null> {
    const terms = [...query.words.map((word) => ({ word, prefix: false })), ...(query.prefix ? [{ word: query.prefix, prefix: query.prefix.length >= MIN_PREFIX_LENGTH }] : [])];
    const expanded = terms.length === 0 ? [] : await this.expand(terms);
    const parts: string[] = [];
    const params: string[] = [];
    if (query.strict.trim() !== '') {
      params.push(query.strict);
      parts.push(`websearch_to_tsquery('simple', search.normalized($${params.length}))`);
    }
    if (expanded.length > 0) {
      params.push(expanded.join(' & '));
      parts.push(`to_tsquery('simple', $${params.length})`);
    }
    return parts.length === 0 ? null : { sql: parts.join(' && '), params, rankedAtMost: terms.some((t) => t.prefix) ? MAX_RANKED_TYPING : MAX_RANKED };
  }

  private async expand(terms: Array<{ word: string; prefix: boolean }>): Promise<string[]> {
    const rows = (await readOnly(this.dataSource).query(
      `SELECT n.word, n.prefix, CASE WHEN x.known OR length(n.word) < $3 THEN '{}'::text[] ELSE search.similar_words(n.word, n.prefix, $4, $5) END AS similar
       FROM (SELECT search.normalized(raw) AS word, prefix, i FROM unnest($1::text[], $2::boolean[]) WITH ORDINALITY AS u(raw, prefix, i)) n
       CROSS JOIN LATERAL (SELECT CASE WHEN n.prefix THEN EXISTS (SELECT 1 FROM search_words w WHERE w.word LIKE ${likePrefix('n.word')})
                                       ELSE EXISTS (SELECT 1 FROM search_words w WHERE w.word = n.word) END AS known) x
       ORDER BY n.i`,
      [terms.map((t) => t.word), terms.map((t) => t.prefix), MIN_WIDENED_LENGTH, SIMILAR_WORDS, CLOSE_TO_BEST],
    )) as Array<{ word: string; prefix: boolean; similar: string[] }>;
    return rows
      .filter((r) => r.word.trim() !== '')
      .map((r) => {
        const typed = r.prefix ? `${lexeme(r.word)}:*` : lexeme(r.word);
        return r.similar.length === 0 ? typed : `(${[typed, ...r.similar.map(lexeme)].join(' | ')})`;
      });
  }

  /**
   * Listed timelines matching the text, best first: text rank (title and tags weigh most) lifted by
   * popularity. A query matching more than `rankedAtMost` timelines ranks the first found.
   */
  async timelines(query: TextQuery, offset: number, limit: number, viewerId: string | null = null): Promise<TimelineHit[]> {
    const n = query.params.length;
    return (await readOnly(this.dataSource).query(
      `WITH q AS (SELECT ${query.sql} AS tsq),
       matches AS (SELECT t.id, ts_rank('{0.1, 0.3, 0.6, 1.0}', t.document, q.tsq) * (1 + t.popularity / 5) AS score
                   FROM q, timelines t WHERE t.listed AND t.document @@ q.tsq AND ${timelineShownSql(`$${n + 3}::uuid`)} AND ${seenDespitePrivacySql(`$${n + 3}::uuid`)} LIMIT ${query.rankedAtMost}),
       page AS (SELECT id, score FROM matches ORDER BY score DESC, id OFFSET $${n + 1} LIMIT $${n + 2})
       SELECT ${TIMELINE_COLUMNS}
       FROM page JOIN timelines t ON t.id = page.id LEFT JOIN users u ON u.id = t.creator_id
       ORDER BY page.score DESC, t.id`,
      [...query.params, offset, limit, viewerId],
    )) as TimelineHit[];
  }

  /** Of the given timelines, those the viewer's blocks, mutes and muted words leave in results. */
  async shownTimelineIds(ids: string[], viewerId: string): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = (await readOnly(this.dataSource).query(`SELECT t.id FROM timelines t WHERE t.id = ANY($1::uuid[]) AND ${timelineShownSql('$2::uuid')} AND ${seenDespitePrivacySql('$2::uuid')}`, [ids, viewerId])) as Array<{ id: string }>;
    return new Set(rows.map((r) => r.id));
  }

  /** Listed timelines using any of the hashtags, those with the first tag first, then the most popular. */
  async timelinesTagged(tags: string[], offset: number, limit: number, viewerId: string | null = null): Promise<TimelineHit[]> {
    if (tags.length === 0) return [];
    return (await readOnly(this.dataSource).query(
      `WITH matches AS (SELECT t.id, t.hashtags @> $2::varchar[] AS first, t.popularity FROM timelines t WHERE t.listed AND t.hashtags && $1::varchar[] AND ${timelineShownSql('$5::uuid')} AND ${seenDespitePrivacySql('$5::uuid')} LIMIT ${MAX_RANKED}),
       page AS (SELECT * FROM matches ORDER BY first DESC, popularity DESC, id OFFSET $3 LIMIT $4)
       SELECT ${TIMELINE_COLUMNS}
       FROM page JOIN timelines t ON t.id = page.id LEFT JOIN users u ON u.id = t.creator_id
       ORDER BY page.first DESC, page.popularity DESC, t.id`,
      [tags, tags.slice(0, 1), offset, limit, viewerId],
    )) as TimelineHit[];
  }

  /**
   * People whose username, name or bio match, best first, lifted by their followers; an exact
   * username first. When those do not fill the page, people whose username or name holds a word
   * like the text join them (one letter off is found).
   */
  async users(query: TextQuery | null, text: string, offset: number, limit: number, viewerId: string | null = null): Promise<UserHit[]> {
    const n = query?.params.length ?? 0;
    const tsq = query ? query.sql : `''::tsquery`;
    // q is inlined where used, so its values are constants to the planner (and the trigram index usable).
    const score = `(u.username_key = q.text) AS exact, (ts_rank(u.document, q.tsq) + word_similarity(q.text, u.names)) * (1 + ln(1 + u.followers_count) / 10) AS score`;
    return (await readOnly(this.dataSource).query(
      `WITH q AS NOT MATERIALIZED (SELECT ${tsq} AS tsq, search.normalized($${n + 1}) AS text),
       direct AS (SELECT u.id, ${score} FROM q, users u
                  WHERE q.text <> '' AND (u.document @@ q.tsq OR u.username_key LIKE ${likePrefix('q.text')}) LIMIT ${query?.rankedAtMost ?? MAX_RANKED}),
       alike AS (SELECT u.id, ${score} FROM q, users u
                 WHERE length(q.text) >= ${MIN_TYPO_LENGTH} AND (SELECT count(*) FROM direct) < $${n + 2}::int + $${n + 3}::int AND q.text <% u.names
                 LIMIT ${MAX_SIMILAR}),
       page AS (SELECT m.id, m.exact, m.score FROM (SELECT * FROM direct UNION SELECT * FROM alike) m JOIN users u ON u.id = m.id
                WHERE ${personShownSql(`$${n + 4}::uuid`)} ORDER BY m.exact DESC, m.score DESC, m.id OFFSET $${n + 2} LIMIT $${n + 3})
       SELECT u.id, u.username, u.display_name AS "displayName", u.bio, u.avatar, u.is_private AS "isPrivate", u.followers_count AS "followersCount"
       FROM page JOIN users u ON u.id = page.id
       ORDER BY page.exact DESC, page.score DESC, u.id`,
      [...(query?.params ?? []), text, offset, limit, viewerId],
    )) as UserHit[];
  }

  /**
   * Hashtags starting with the text (spaces dropped: "super hero" finds #superhero), exact first,
   * then the most used; when those do not fill the page, hashtags like it join them.
   */
  async hashtags(text: string, offset: number, limit: number, viewerId: string | null = null): Promise<HashtagHit[]> {
    return (await readOnly(this.dataSource).query(
      `WITH q AS NOT MATERIALIZED (SELECT regexp_replace(search.normalized($1), '[\\s#]+', '', 'g') AS text),
       prefixed AS (SELECT h.name FROM q, hashtags h WHERE q.text <> '' AND search.normalized(h.name) LIKE ${likePrefix('q.text')} LIMIT ${MAX_RANKED}),
       alike AS (SELECT h.name FROM q, hashtags h
                   WHERE length(q.text) >= ${MIN_TYPO_LENGTH} AND (SELECT count(*) FROM prefixed) < $2::int + $3::int AND search.normalized(h.name) % q.text
                   LIMIT ${MAX_SIMILAR})
       SELECT h.name, ${publicHashtagUsesSql('h')} AS "usageCount"
       FROM q, hashtags h
       WHERE h.name IN (SELECT name FROM prefixed UNION SELECT name FROM alike) AND ${hashtagShownSql('$4::uuid')} AND ${publicHashtagUsesSql('h')} > 0
       ORDER BY (search.normalized(h.name) = q.text) DESC, (search.normalized(h.name) LIKE ${likePrefix('q.text')}) DESC, h.usage_count DESC, h.name
       OFFSET $2 LIMIT $3`,
      [text, offset, limit, viewerId],
    )) as HashtagHit[];
  }
}
