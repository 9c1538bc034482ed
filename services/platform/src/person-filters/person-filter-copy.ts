import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { MessageShape } from '@bufbuild/protobuf';
import { type BlockChangedSchema, type MutedWordsChangedSchema, type MuteChangedSchema, SocialEvents } from '@timeliner/proto';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { EntityManager } from 'typeorm';
import { on } from '../bus/event-consumer.js';
import { isUuid } from '../payload/payload-checks.js';
import { freeOfMutedWordsSql, MUTED_WORD_MAX_LENGTH, mutedWordPattern, normalizeMutedWord } from '../text/muted-words.js';

/**
 * A service's copy of the blocks and mutes the social service owns (issue 28), kept from
 * BlockChanged, MuteChanged and MutedWordsChanged, for the services that apply them in their own
 * reads (search's results, notifications). The same tables, handlers and SQL fragments in each:
 * the tables go in the service's own schema by its own migration (PERSON_FILTER_COPY_DDL).
 *
 * A pair's row stays when the block or mute is lifted (`active` false) with the version that
 * lifted it, so an older event arriving late never brings it back.
 */
@Entity({ name: 'person_filters' })
@Index('person_filters_other_idx', ['otherId', 'ownerId'])
export class PersonFilterCopy {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_person_filters' })
  ownerId: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_person_filters' })
  otherId: string;

  /** 'block' or 'mute'. */
  @PrimaryColumn({ type: 'varchar', length: 8, primaryKeyConstraintName: 'PK_person_filters' })
  kind: string;

  @Column({ type: 'boolean' })
  active: boolean;

  @Column({ type: 'bigint' })
  version: string;
}

/** One person's muted word or hashtag (the whole list is replaced by each MutedWordsChanged). */
@Entity({ name: 'muted_words' })
export class MutedWordCopy {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_muted_words' })
  userId: string;

  @PrimaryColumn({ type: 'varchar', length: MUTED_WORD_MAX_LENGTH, primaryKeyConstraintName: 'PK_muted_words' })
  word: string;

  /** See mutedWordPattern. */
  @Column({ type: 'varchar', length: 600 })
  pattern: string;

  @Column({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null;
}

/** The version of each person's list this copy holds. */
@Entity({ name: 'muted_word_lists' })
export class MutedWordListCopy {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_muted_word_lists' })
  userId: string;

  @Column({ type: 'bigint' })
  version: string;
}

export const personFilterCopyEntities = [PersonFilterCopy, MutedWordCopy, MutedWordListCopy];

/** The statements a service's migration runs to create the copy (and their reverse). */
export const PERSON_FILTER_COPY_DDL = {
  up: [
    `CREATE TABLE "person_filters" ("owner_id" uuid NOT NULL, "other_id" uuid NOT NULL, "kind" character varying(8) NOT NULL, "active" boolean NOT NULL, "version" bigint NOT NULL, CONSTRAINT "PK_person_filters" PRIMARY KEY ("owner_id", "other_id", "kind"))`,
    `CREATE INDEX "person_filters_other_idx" ON "person_filters" ("other_id", "owner_id")`,
    `CREATE TABLE "muted_words" ("user_id" uuid NOT NULL, "word" character varying(${MUTED_WORD_MAX_LENGTH}) NOT NULL, "pattern" character varying(600) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_muted_words" PRIMARY KEY ("user_id", "word"))`,
    `CREATE TABLE "muted_word_lists" ("user_id" uuid NOT NULL, "version" bigint NOT NULL, CONSTRAINT "PK_muted_word_lists" PRIMARY KEY ("user_id"))`,
  ],
  down: [`DROP TABLE "muted_word_lists"`, `DROP TABLE "muted_words"`, `DROP TABLE "person_filters"`],
};

async function setPair(manager: EntityManager, kind: 'block' | 'mute', owner: string, other: string, active: boolean, version: bigint): Promise<boolean> {
  if (!isUuid(owner) || !isUuid(other) || version <= 0n) return false;
  const taken = (await manager.query(
    `INSERT INTO person_filters (owner_id, other_id, kind, active, version) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (owner_id, other_id, kind) DO UPDATE SET active = EXCLUDED.active, version = EXCLUDED.version
     WHERE person_filters.version < EXCLUDED.version
     RETURNING owner_id`,
    [owner.toLowerCase(), other.toLowerCase(), kind, active, version.toString()],
  )) as unknown[];
  return taken.length > 0;
}

/** Applies a BlockChanged to the copy; true when it was newer than what the copy held. */
export const applyBlockChanged = (manager: EntityManager, e: MessageShape<typeof BlockChangedSchema>): Promise<boolean> => setPair(manager, 'block', e.blockerId, e.blockedId, e.active, e.version);

/** Applies a MuteChanged to the copy; true when it was newer than what the copy held. */
export const applyMuteChanged = (manager: EntityManager, e: MessageShape<typeof MuteChangedSchema>): Promise<boolean> => setPair(manager, 'mute', e.muterId, e.mutedId, e.active, e.version);

/** Replaces the person's muted words with the event's list when it is newer than the copy's; true then. */
export async function applyMutedWordsChanged(manager: EntityManager, e: MessageShape<typeof MutedWordsChangedSchema>): Promise<boolean> {
  if (!isUuid(e.userId) || e.version <= 0n) return false;
  const userId = e.userId.toLowerCase();
  const taken = (await manager.query(
    `INSERT INTO muted_word_lists (user_id, version) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET version = EXCLUDED.version WHERE muted_word_lists.version < EXCLUDED.version
     RETURNING user_id`,
    [userId, e.version.toString()],
  )) as unknown[];
  if (taken.length === 0) return false;
  await manager.query('DELETE FROM muted_words WHERE user_id = $1', [userId]);
  const words = new Map<string, Date | null>();
  for (const w of e.words) {
    const word = normalizeMutedWord(w.word);
    if (word) words.set(word, w.expiresAt ? timestampDate(w.expiresAt) : null);
  }
  if (words.size === 0) return true;
  const list = [...words];
  await manager.query(
    `INSERT INTO muted_words (user_id, word, pattern, expires_at) SELECT $1, w, p, x FROM unnest($2::text[], $3::text[], $4::timestamptz[]) AS u(w, p, x)`,
    [userId, list.map(([w]) => w), list.map(([w]) => mutedWordPattern(w)), list.map(([, x]) => x)],
  );
  return true;
}

/** The handlers that keep the copy: a pair taken over an older version only, a word list likewise. */
export const personFilterCopyHandlers = [
  on(SocialEvents.BlockChanged, async (e, _meta, manager) => {
    await applyBlockChanged(manager, e);
  }),
  on(SocialEvents.MuteChanged, async (e, _meta, manager) => {
    await applyMuteChanged(manager, e);
  }),
  on(SocialEvents.MutedWordsChanged, async (e, _meta, manager) => {
    await applyMutedWordsChanged(manager, e);
  }),
];

/**
 * SQL fragments over the copy, for a service's reads. `viewer` is the SQL of the reader's id (NULL
 * for anonymous: nothing hidden), `author` the column of the person whose thing or action it is.
 */
export const copyNotBlockedSql = (viewer: string, author: string): string =>
  `NOT EXISTS (SELECT 1 FROM person_filters pf WHERE pf.kind = 'block' AND pf.active AND ((pf.owner_id = ${viewer} AND pf.other_id = ${author}) OR (pf.owner_id = ${author} AND pf.other_id = ${viewer})))`;

export const copyNotMutedSql = (viewer: string, author: string): string =>
  `NOT EXISTS (SELECT 1 FROM person_filters pm WHERE pm.kind = 'mute' AND pm.active AND pm.owner_id = ${viewer} AND pm.other_id = ${author})`;

export const copyFreeOfMutedWordsSql = (viewer: string, text: string): string => freeOfMutedWordsSql(viewer, text);

/** What a person's blocks, mutes and muted words say about some people, read from the copy (for filters applied in code). */
export async function personFilterView(manager: EntityManager, viewerId: string, people: string[]): Promise<{ blocked: Set<string>; muted: Set<string>; words: string[] }> {
  const rows = (await manager.query(
    `SELECT 'block' AS kind, CASE WHEN owner_id = $1 THEN other_id ELSE owner_id END::text AS value FROM person_filters
      WHERE kind = 'block' AND active AND ((owner_id = $1 AND other_id = ANY($2::uuid[])) OR (other_id = $1 AND owner_id = ANY($2::uuid[])))
     UNION ALL SELECT 'mute', other_id::text FROM person_filters WHERE kind = 'mute' AND active AND owner_id = $1 AND other_id = ANY($2::uuid[])
     UNION ALL SELECT 'word', word FROM muted_words WHERE user_id = $1 AND (expires_at IS NULL OR expires_at > now())`,
    [viewerId, people],
  )) as Array<{ kind: string; value: string }>;
  const pick = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.value);
  return { blocked: new Set(pick('block')), muted: new Set(pick('mute')), words: pick('word') };
}
