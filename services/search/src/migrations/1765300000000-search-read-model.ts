import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxTables, dropOutboxTables } from '@timeliner/platform';

/**
 * The search read model: timelines, people and hashtags as events describe them, the words known
 * for typo tolerance, popularity by day, and people's recent searches.
 *
 * Matching is language-neutral: the 'simple' text search configuration over `normalized()`
 * (lower case, accents removed by the unaccent extension), so "Café" and "cafe" are one word in
 * any language. pg_trgm gives typo tolerance. Both extensions live in this schema, which the
 * service's connections search.
 */
export class SearchReadModel1765300000000 implements MigrationInterface {
  name = 'SearchReadModel1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTables(q, 'search');
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA search`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA search`);
    // unaccent() is only STABLE (its dictionary could change); naming the dictionary makes this
    // wrapper safe to declare IMMUTABLE, so indexes can use it.
    await q.query(`CREATE FUNCTION search.normalized(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
      AS $$ SELECT lower(search.unaccent('search.unaccent'::regdictionary, $1)) $$`);

    await q.query(`CREATE TABLE "timelines" ("id" uuid NOT NULL, "creator_id" uuid NOT NULL, "creator_name" character varying(100) NOT NULL DEFAULT '', "creator_username" character varying(30) NOT NULL DEFAULT '', "title" character varying(200) NOT NULL DEFAULT '', "description" character varying(5000) NOT NULL DEFAULT '', "hashtags" character varying(50) array NOT NULL DEFAULT '{}', "listed" boolean NOT NULL DEFAULT false, "video_count" integer NOT NULL DEFAULT '0', "duration" integer NOT NULL DEFAULT '0', "views" bigint NOT NULL DEFAULT '0', "likes_count" integer NOT NULL DEFAULT '0', "comments_count" integer NOT NULL DEFAULT '0', "activity_score" double precision NOT NULL DEFAULT '0', "popularity" double precision NOT NULL DEFAULT '0', "last_activity_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "cover_media_id" uuid, "revision" bigint NOT NULL DEFAULT '0', "document" tsvector, CONSTRAINT "PK_b7e242fccf271037f4d6a00d9dd" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "timelines_creator_idx" ON "timelines" ("creator_id")`);
    await q.query(`CREATE INDEX "timelines_document_idx" ON "timelines" USING gin ("document") WHERE "listed"`);
    await q.query(`CREATE INDEX "timelines_hashtags_idx" ON "timelines" USING gin ("hashtags") WHERE "listed"`);
    await q.query(`CREATE INDEX "timelines_popularity_idx" ON "timelines" ("popularity" DESC, "id") WHERE "listed"`);
    await q.query(`CREATE TABLE "deleted_timelines" ("id" uuid NOT NULL, "deleted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dc36bd366988fb2674a2803af45" PRIMARY KEY ("id"))`);
    await q.query(`CREATE TABLE "timeline_engagement" ("timeline_id" uuid NOT NULL, "day" date NOT NULL, "engagement" double precision NOT NULL DEFAULT '0', CONSTRAINT "PK_d12d9912facfea53dff45b85f3a" PRIMARY KEY ("timeline_id", "day"))`);
    await q.query(`CREATE INDEX "timeline_engagement_day_idx" ON "timeline_engagement" ("day")`);
    await q.query(`CREATE TABLE "search_words" ("word" character varying(40) NOT NULL, CONSTRAINT "PK_d9d27dac96e8272918599c9f537" PRIMARY KEY ("word"))`);
    await q.query(`CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" search.gin_trgm_ops)`);
    await q.query(`CREATE INDEX "search_words_prefix_idx" ON "search_words" ("word" varchar_pattern_ops)`);
    // The known words most like a typed one (see search.repository.ts): by similarity, or for a
    // word still being typed by word similarity (its best match inside a longer word), keeping
    // those within \`closeness\` of the best. The thresholds of pg_trgm's indexed operators are set
    // for this function's run only.
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

    // A listed timeline's document and its words; any other timeline has neither. A snapshot that
    // changes only counts keeps the document as it is.
    await q.query(`CREATE FUNCTION search.timelines_document() RETURNS trigger LANGUAGE plpgsql AS $$
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
    await q.query(`CREATE TRIGGER "timelines_document" BEFORE INSERT OR UPDATE ON "timelines" FOR EACH ROW EXECUTE FUNCTION search.timelines_document()`);

    await q.query(`CREATE TABLE "users" ("id" uuid NOT NULL, "username" character varying(30) NOT NULL, "display_name" character varying(100) NOT NULL DEFAULT '', "bio" character varying(500) NOT NULL DEFAULT '', "avatar" character varying(2048), "is_private" boolean NOT NULL DEFAULT false, "followers_count" integer NOT NULL DEFAULT '0', "followers_version" bigint NOT NULL DEFAULT '0', "username_key" character varying(30) NOT NULL DEFAULT '', "names" character varying(140) NOT NULL DEFAULT '', "document" tsvector, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "users_document_idx" ON "users" USING gin ("document")`);
    await q.query(`CREATE INDEX "users_names_trgm_idx" ON "users" USING gin ("names" search.gin_trgm_ops)`);
    // Prefix (text_pattern_ops compares like LIKE does) and equality of the matched username.
    await q.query(`CREATE INDEX "users_username_key_idx" ON "users" ("username_key" varchar_pattern_ops)`);
    // The matched forms are kept beside the row, so a query never normalizes row by row.
    await q.query(`CREATE FUNCTION search.users_document() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.username_key := search.normalized(NEW.username);
        NEW.names := left(NEW.username_key || ' ' || search.normalized(NEW.display_name), 140);
        NEW.document :=
          setweight(to_tsvector('simple', search.normalized(NEW.username || ' ' || NEW.display_name)), 'A') ||
          setweight(to_tsvector('simple', search.normalized(NEW.bio)), 'C');
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER "users_document" BEFORE INSERT OR UPDATE OF "username", "display_name", "bio" ON "users" FOR EACH ROW EXECUTE FUNCTION search.users_document()`);

    await q.query(`CREATE TABLE "hashtags" ("name" character varying(50) NOT NULL, "usage_count" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_7fedde18872deb14e4889361d7b" PRIMARY KEY ("name"))`);
    await q.query(`CREATE INDEX "hashtags_trgm_idx" ON "hashtags" USING gin (search.normalized("name") search.gin_trgm_ops)`);
    await q.query(`CREATE INDEX "hashtags_prefix_idx" ON "hashtags" (search.normalized("name") text_pattern_ops)`);
    await q.query(`CREATE TABLE "hashtag_uses" ("source_type" character varying(16) NOT NULL, "source_id" uuid NOT NULL, "hashtag" character varying(50) NOT NULL, "user_id" uuid NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_e44d1b9cd9f2cfaae52cf2c1faf" PRIMARY KEY ("source_type", "source_id", "hashtag"))`);
    await q.query(`CREATE INDEX "hashtag_uses_used_at_idx" ON "hashtag_uses" ("used_at")`);
    await q.query(`CREATE INDEX "hashtag_uses_hashtag_idx" ON "hashtag_uses" ("hashtag", "used_at")`);
    await q.query(`CREATE TABLE "tagged_posts" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "hashtags" character varying(50) array NOT NULL DEFAULT '{}', "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "deleted" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_d2f246c0a2e9441fe7d2e513bcb" PRIMARY KEY ("id"))`);

    await q.query(`CREATE TABLE "search_history" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "query" character varying(200) NOT NULL, "normalized_query" character varying(200) NOT NULL, "result_type" character varying(16), "result_id" character varying(100), "searched_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cb93c8f85dbdca85943ca494812" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "search_history_user_searched_idx" ON "search_history" ("user_id", "searched_at")`);
    await q.query(`CREATE UNIQUE INDEX "search_history_user_query_idx" ON "search_history" ("user_id", "normalized_query")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "search_history"`);
    await q.query(`DROP TABLE "tagged_posts"`);
    await q.query(`DROP TABLE "hashtag_uses"`);
    await q.query(`DROP TABLE "hashtags"`);
    await q.query(`DROP TABLE "users"`);
    await q.query(`DROP FUNCTION search.users_document()`);
    await q.query(`DROP TABLE "timelines"`);
    await q.query(`DROP FUNCTION search.timelines_document()`);
    await q.query(`DROP FUNCTION search.similar_words(text, boolean, integer, double precision)`);
    await q.query(`DROP TABLE "search_words"`);
    await q.query(`DROP TABLE "timeline_engagement"`);
    await q.query(`DROP TABLE "deleted_timelines"`);
    await q.query(`DROP FUNCTION search.normalized(text)`);
    await q.query(`DROP EXTENSION IF EXISTS unaccent`);
    await q.query(`DROP EXTENSION IF EXISTS pg_trgm`);
    await dropOutboxTables(q, 'search');
  }
}
