import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Known words up to this length keep their one-letter deletions (longer ones keep enough trigrams). */
const MAX_EDITED_LENGTH = 8;

/**
 * Typo tolerance for short words, and trending hashtags that also show what is in use.
 *
 * Trigrams find a typo in a long word ("sumer" → "summer"), but a short word has too few of them:
 * "trp" or "tirp" share one or two with "trip". `search_word_edits` keeps, for each known word of
 * up to 8 letters, the word with each one letter taken out (SymSpell's deletions), so the known
 * words one edit away from a typed word (a letter missing, one too many, one replaced, or two
 * neighbours swapped) are found by index lookups: `search.words_one_edit_from`.
 * `search.similar_words` falls back on them when trigrams find nothing.
 *
 * `hashtags_usage_idx` reads the hashtags most in use, which fill the trending list when few
 * tags are taking off.
 */
export class WordEdits1765400000000 implements MigrationInterface {
  name = 'WordEdits1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "search_word_edits" ("variant" character varying(40) NOT NULL, "word" character varying(40) NOT NULL, "pos" smallint NOT NULL, CONSTRAINT "PK_search_word_edits" PRIMARY KEY ("variant", "word", "pos"))`);
    await q.query(`INSERT INTO search.search_word_edits (variant, word, pos)
      SELECT left(w.word, p - 1) || substr(w.word, p + 1), w.word, p
        FROM search.search_words w, generate_series(1, length(w.word)) p
       WHERE length(w.word) <= ${MAX_EDITED_LENGTH}
      ON CONFLICT DO NOTHING`);
    await q.query(`CREATE INDEX "hashtags_usage_idx" ON "hashtags" ("usage_count", "name")`);

    // Known words one edit from a typed one: the closest by trigram similarity first. PL/pgSQL, so
    // each call is planned for its word (a SQL function's generic plan expects a thousand edits and
    // scans both tables).
    await q.query(`CREATE FUNCTION search.words_one_edit_from(typed text, max_words integer) RETURNS text[]
      LANGUAGE plpgsql STABLE PARALLEL SAFE
      AS $$
        DECLARE
          edits text[] := ARRAY(SELECT left(typed, p - 1) || substr(typed, p + 1) FROM generate_series(1, length(typed)) p);
        BEGIN
          RETURN ARRAY(
            SELECT word FROM (
              -- one letter too many
              SELECT w.word FROM unnest(edits) AS t(variant) JOIN search.search_words w ON w.word = t.variant
              UNION
              -- one letter missing
              SELECT e.word FROM search.search_word_edits e WHERE e.variant = typed
              UNION
              -- one letter replaced, or two neighbours swapped
              SELECT e.word FROM unnest(edits) WITH ORDINALITY AS t(variant, pos) JOIN search.search_word_edits e ON e.variant = t.variant
               WHERE e.pos = t.pos OR (abs(e.pos - t.pos) = 1 AND substr(typed, t.pos::int, 1) = substr(e.word, e.pos, 1))
            ) found
            WHERE word <> typed
            ORDER BY search.similarity(word, typed) DESC, left(word, 1) = left(typed, 1) DESC, word
            LIMIT max_words);
        END
      $$`);

    // As before for words of 4 letters and more; when trigrams find nothing (a short word, two
    // letters swapped), the known words one edit away.
    await q.query(`CREATE OR REPLACE FUNCTION search.similar_words(typed text, prefix boolean, max_words integer, closeness double precision) RETURNS text[]
      LANGUAGE plpgsql STABLE PARALLEL SAFE
      SET pg_trgm.similarity_threshold = 0.4
      SET pg_trgm.word_similarity_threshold = 0.5
      AS $$
        DECLARE
          found text[] := '{}';
        BEGIN
          IF length(typed) >= 4 THEN
            IF prefix THEN
              found := ARRAY(SELECT word FROM (SELECT w.word, search.word_similarity(typed, w.word) AS sim, max(search.word_similarity(typed, w.word)) OVER () AS best
                                               FROM search.search_words w WHERE typed OPERATOR(search.<%) w.word
                                               ORDER BY sim DESC, length(w.word), w.word LIMIT max_words) x WHERE sim >= best * closeness);
            ELSE
              found := ARRAY(SELECT word FROM (SELECT w.word, search.similarity(w.word, typed) AS sim, max(search.similarity(w.word, typed)) OVER () AS best
                                               FROM search.search_words w WHERE w.word OPERATOR(search.%) typed
                                               ORDER BY sim DESC, w.word LIMIT max_words) x WHERE sim >= best * closeness);
            END IF;
          END IF;
          IF cardinality(found) = 0 AND length(typed) BETWEEN 3 AND ${MAX_EDITED_LENGTH + 1} THEN
            found := search.words_one_edit_from(typed, max_words);
          END IF;
          RETURN found;
        END
      $$`);

    // The trigger also keeps the deletions of the words it adds.
    await q.query(`CREATE OR REPLACE FUNCTION search.timelines_document() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT NEW.listed THEN
          NEW.document := NULL;
          RETURN NEW;
        END IF;
        IF TG_OP = 'UPDATE' AND OLD.listed AND OLD.document IS NOT NULL
           AND (NEW.title, NEW.description, NEW.hashtags, NEW.creator_name, NEW.creator_username)
               IS NOT DISTINCT FROM (OLD.title, OLD.description, OLD.hashtags, OLD.creator_name, OLD.creator_username) THEN
          NEW.document := OLD.document;
          RETURN NEW;
        END IF;
        NEW.document :=
          setweight(to_tsvector('simple', search.normalized(NEW.title || ' ' || array_to_string(NEW.hashtags, ' '))), 'A') ||
          setweight(to_tsvector('simple', search.normalized(NEW.creator_name || ' ' || NEW.creator_username)), 'B') ||
          setweight(to_tsvector('simple', search.normalized(NEW.description)), 'C');
        WITH added AS (
          INSERT INTO search.search_words (word)
            SELECT lexeme FROM unnest(NEW.document) WHERE length(lexeme) BETWEEN 3 AND 40 AND lexeme ~ '^[[:alnum:]]+$'
            ON CONFLICT DO NOTHING
            RETURNING word
        )
        INSERT INTO search.search_word_edits (variant, word, pos)
          SELECT left(a.word, p - 1) || substr(a.word, p + 1), a.word, p
            FROM added a, generate_series(1, length(a.word)) p
           WHERE length(a.word) <= ${MAX_EDITED_LENGTH}
          ON CONFLICT DO NOTHING;
        RETURN NEW;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE OR REPLACE FUNCTION search.timelines_document() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT NEW.listed THEN
          NEW.document := NULL;
          RETURN NEW;
        END IF;
        IF TG_OP = 'UPDATE' AND OLD.listed AND OLD.document IS NOT NULL
           AND (NEW.title, NEW.description, NEW.hashtags, NEW.creator_name, NEW.creator_username)
               IS NOT DISTINCT FROM (OLD.title, OLD.description, OLD.hashtags, OLD.creator_name, OLD.creator_username) THEN
          NEW.document := OLD.document;
          RETURN NEW;
        END IF;
        NEW.document :=
          setweight(to_tsvector('simple', search.normalized(NEW.title || ' ' || array_to_string(NEW.hashtags, ' '))), 'A') ||
          setweight(to_tsvector('simple', search.normalized(NEW.creator_name || ' ' || NEW.creator_username)), 'B') ||
          setweight(to_tsvector('simple', search.normalized(NEW.description)), 'C');
        INSERT INTO search.search_words (word)
          SELECT lexeme FROM unnest(NEW.document) WHERE length(lexeme) BETWEEN 3 AND 40 AND lexeme ~ '^[[:alnum:]]+$'
          ON CONFLICT DO NOTHING;
        RETURN NEW;
      END $$`);
    await q.query(`DROP FUNCTION search.similar_words(text, boolean, integer, double precision)`);
    await q.query(`CREATE FUNCTION search.similar_words(typed text, prefix boolean, max_words integer, closeness double precision) RETURNS text[]
      LANGUAGE sql STABLE PARALLEL SAFE
      SET pg_trgm.similarity_threshold = 0.4
      SET pg_trgm.word_similarity_threshold = 0.5
      AS $$
        SELECT CASE WHEN prefix THEN
          ARRAY(SELECT word FROM (SELECT w.word, search.word_similarity(typed, w.word) AS sim, max(search.word_similarity(typed, w.word)) OVER () AS best
                                  FROM search.search_words w WHERE typed OPERATOR(search.<%) w.word
                                  ORDER BY sim DESC, length(w.word), w.word LIMIT max_words) x WHERE sim >= best * closeness)
        ELSE
          ARRAY(SELECT word FROM (SELECT w.word, search.similarity(w.word, typed) AS sim, max(search.similarity(w.word, typed)) OVER () AS best
                                  FROM search.search_words w WHERE w.word OPERATOR(search.%) typed
                                  ORDER BY sim DESC, w.word LIMIT max_words) x WHERE sim >= best * closeness)
        END
      $$`);
    await q.query(`DROP FUNCTION search.words_one_edit_from(text, integer)`);
    await q.query(`DROP INDEX "search"."hashtags_usage_idx"`);
    await q.query(`DROP TABLE "search_word_edits"`);
  }
}
