import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { type CursorKey, cursorTimestamp, mutedWordPattern } from '@timeliner/platform';
import { notBlockedSql } from '../read-rules/person-filter-sql.js';

/** Which of the two lists of people a page reads. */
export type PersonFilterKind = 'block' | 'mute';

/** A pair's change that really happened, with the version its event carries. */
export interface PairChange {
  active: boolean;
  version: bigint;
}

/** One person of the blocked or muted list. */
export interface FilteredPersonRow {
  userId: string;
  since: Date;
  person: { username: string; displayName: string; avatar: string | null } | null;
  key: [createdAt: string, userId: string];
}

export interface MutedWordRow {
  id: string;
  word: string;
  expiresAt: Date | null;
  createdAt: Date;
}

const TABLE: Record<PersonFilterKind, { table: string; owner: string; other: string }> = {
  block: { table: 'blocks', owner: 'blocker_id', other: 'blocked_id' },
  mute: { table: 'mutes', owner: 'muter_id', other: 'muted_id' },
};

/**
 * blocks, mutes and muted_words. A pair's changes run under an advisory lock of the pair, and
 * their versions come from person_filter_version_seq inside it, so versions follow commit order.
 */
export class PersonFilterRepository {
  constructor(private readonly dataSource: DataSource) {}

  async userExists(userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM users WHERE id = $1', [userId]);
    return rows.length > 0;
  }

  /** The author of a post; null when there is no such post. */
  async postAuthor(postId: string): Promise<string | null> {
    const [row] = (await this.dataSource.query('SELECT user_id AS "userId" FROM posts WHERE id = $1', [postId])) as Array<{ userId: string }>;
    return row?.userId ?? null;
  }

  /** Of the given people, who is blocked either way with the viewer and whom the viewer muted; the viewer's muted words. */
  async viewOf(viewerId: string, people: string[]): Promise<{ blocked: Set<string>; muted: Set<string>; words: string[] }> {
    const rows = (await this.dataSource.query(
      `SELECT 'block' AS kind, blocked_id::text AS value FROM blocks WHERE blocker_id = $1 AND blocked_id = ANY($2::uuid[])
       UNION ALL SELECT 'block', blocker_id::text FROM blocks WHERE blocked_id = $1 AND blocker_id = ANY($2::uuid[])
       UNION ALL SELECT 'mute', muted_id::text FROM mutes WHERE muter_id = $1 AND muted_id = ANY($2::uuid[])
       UNION ALL SELECT 'word', word FROM muted_words WHERE user_id = $1 AND (expires_at IS NULL OR expires_at > now())`,
      [viewerId, people],
    )) as Array<{ kind: 'block' | 'mute' | 'word'; value: string }>;
    const pick = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.value);
    return { blocked: new Set(pick('block')), muted: new Set(pick('mute')), words: pick('word') };
  }

  /** The creators of the timelines the feed read model knows. */
  async timelineCreators(ids: string[]): Promise<Array<{ id: string; creatorId: string }>> {
    return (await this.dataSource.query('SELECT id, creator_id AS "creatorId" FROM feed_timelines WHERE id = ANY($1::uuid[])', [ids])) as Array<{ id: string; creatorId: string }>;
  }

  /** The owner of a collection; null when there is no such collection. */
  async collectionOwner(collectionId: string): Promise<string | null> {
    const [row] = (await this.dataSource.query('SELECT user_id AS "userId" FROM collections WHERE id = $1', [collectionId])) as Array<{ userId: string }>;
    return row?.userId ?? null;
  }

  /** Whether either of the two has blocked the other. */
  async blockedEitherWay(a: string | undefined, b: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    if (!a) return false;
    const rows: unknown[] = await manager.query(`SELECT 1 WHERE NOT ${notBlockedSql('$1::uuid', '$2::uuid')}`, [a, b]);
    return rows.length > 0;
  }

  /** Whether `ownerId` has blocked (or muted) `otherId`. */
  async has(kind: PersonFilterKind, ownerId: string, otherId: string): Promise<boolean> {
    const { table, owner, other } = TABLE[kind];
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM ${table} WHERE ${owner} = $1 AND ${other} = $2`, [ownerId, otherId]);
    return rows.length > 0;
  }

  /** Blocks or mutes (`active`) or lifts it; null when it was already so. */
  async set(manager: EntityManager, kind: PersonFilterKind, ownerId: string, otherId: string, active: boolean): Promise<PairChange | null> {
    const { table, owner, other } = TABLE[kind];
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${kind}:${ownerId}:${otherId}`]);
    const changed: unknown[] = await manager.query(
      active
        ? `WITH r AS (INSERT INTO ${table} (${owner}, ${other}) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1) SELECT * FROM r`
        : `WITH r AS (DELETE FROM ${table} WHERE ${owner} = $1 AND ${other} = $2 RETURNING 1) SELECT * FROM r`,
      [ownerId, otherId],
    );
    if (changed.length === 0) return null;
    return { active, version: await this.nextVersion(manager) };
  }

  async nextVersion(manager: EntityManager): Promise<bigint> {
    const [row] = (await manager.query(`SELECT nextval('person_filter_version_seq')::text AS v`)) as Array<{ v: string }>;
    return BigInt(row!.v);
  }

  /** A deleted account's blocks and mutes, both ways, and its muted words go. */
  async forget(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('DELETE FROM blocks WHERE blocker_id = $1 OR blocked_id = $1', [userId]);
    await manager.query('DELETE FROM mutes WHERE muter_id = $1 OR muted_id = $1', [userId]);
    await manager.query('DELETE FROM muted_words WHERE user_id = $1', [userId]);
  }

  /** The people the owner blocked (or muted), newest first. */
  async list(kind: PersonFilterKind, ownerId: string, limit: number, after?: CursorKey): Promise<FilteredPersonRow[]> {
    const { table, owner, other } = TABLE[kind];
    const params: unknown[] = [ownerId, limit];
    let condition = `f.${owner} = $1`;
    if (after) {
      params.push(after[0], after[1]);
      condition += ` AND (f.created_at, f.${other}) < ($3::timestamptz, $4::uuid)`;
    }
    const rows = (await this.dataSource.query(
      `SELECT f.${other} AS user_id, f.created_at, ${cursorTimestamp('f.created_at')} AS created_key, u.username, u.display_name, u.avatar
         FROM ${table} f LEFT JOIN users u ON u.id = f.${other}
        WHERE ${condition}
        ORDER BY f.created_at DESC, f.${other} DESC
        LIMIT $2`,
      params,
    )) as Array<{ user_id: string; created_at: Date; created_key: string; username: string | null; display_name: string | null; avatar: string | null }>;
    return rows.map((raw) => ({
      userId: raw.user_id,
      since: raw.created_at,
      person: raw.username === null ? null : { username: raw.username, displayName: raw.display_name ?? '', avatar: raw.avatar },
      key: [raw.created_key, raw.user_id],
    }));
  }

  /** The person's muted words that still stand, newest first. */
  async words(userId: string, manager: EntityManager = this.dataSource.manager): Promise<MutedWordRow[]> {
    return (await manager.query(
      `SELECT id, word, expires_at AS "expiresAt", created_at AS "createdAt" FROM muted_words
        WHERE user_id = $1 AND (expires_at IS NULL OR expires_at > now()) ORDER BY created_at DESC, id DESC`,
      [userId],
    )) as MutedWordRow[];
  }

  /** Takes the person's word-list lock (every change of their list runs under it). */
  async lockWords(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`muted_words:${userId}`]);
  }

  /** How many words the person has muted, expired ones not counted. */
  async countWords(manager: EntityManager, userId: string): Promise<number> {
    const [row] = (await manager.query(`SELECT count(*)::int AS n FROM muted_words WHERE user_id = $1 AND (expires_at IS NULL OR expires_at > now())`, [userId])) as Array<{ n: number }>;
    return row?.n ?? 0;
  }

  /** Mutes the word (a word muted again takes the new expiry); its row. */
  async addWord(manager: EntityManager, userId: string, word: string, expiresAt: Date | null): Promise<MutedWordRow> {
    const [row] = (await manager.query(
      `INSERT INTO muted_words (id, user_id, word, pattern, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, word) DO UPDATE SET expires_at = EXCLUDED.expires_at, created_at = now()
       RETURNING id, word, expires_at AS "expiresAt", created_at AS "createdAt"`,
      [randomUUID(), userId, word, mutedWordPattern(word), expiresAt],
    )) as MutedWordRow[];
    return row!;
  }

  /** Removes one of the person's words; false when they have no such word. */
  async removeWord(manager: EntityManager, userId: string, id: string): Promise<boolean> {
    const gone: unknown[] = await manager.query('WITH r AS (DELETE FROM muted_words WHERE id = $1 AND user_id = $2 RETURNING 1) SELECT * FROM r', [id, userId]);
    return gone.length > 0;
  }

  /** Expired words are kept out of every read; this clears them from the table. */
  async pruneExpiredWords(manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(`DELETE FROM muted_words WHERE expires_at < now() - interval '1 day'`);
  }
}
