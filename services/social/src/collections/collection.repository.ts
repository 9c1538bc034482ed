import type { DataSource, EntityManager } from 'typeorm';
import { type CursorKey, cursorTimestamp } from '@timeliner/platform';
import { lockFeedTimeline } from '../feed-index/feed-timeline-lock.js';
import { authorNotSuspended } from '../read-rules/moderation-filters.js';
import { seenDespitePrivacySql } from '../private-accounts/private-account-sql.js';

export interface CollectionRow {
  id: string;
  userId: string;
  name: string;
  description: string | null;
  isPublic: boolean;
  timelinesCount: number;
  createdAt: Date;
  updatedAt: Date;
  /** (created_at as cursor text, id): the key of the newest-first list. */
  key: CursorKey;
}

export interface CollectionItemRow {
  timelineId: string;
  position: number;
  addedAt: Date;
}

const COLUMNS = `c.id, c.user_id AS "userId", c.name, c.description, c.is_public AS "isPublic", c.timelines_count AS "timelinesCount",
  c.created_at AS "createdAt", c.updated_at AS "updatedAt", ${cursorTimestamp('c.created_at')} AS "keyAt"`;

type RawCollection = Omit<CollectionRow, 'key'> & { keyAt: string };
const toRow = ({ keyAt, ...raw }: RawCollection): CollectionRow => ({ ...raw, key: [keyAt, raw.id] });

const ITEM_COLUMNS = `timeline_id AS "timelineId", position, added_at AS "addedAt"`;

/**
 * collections and collection_timelines. Every change of a collection's timelines takes the
 * collection row's lock first, so its count always equals its rows and positions are handed out
 * one at a time. Adding a timeline also takes the timeline's feed lock (before the collection's,
 * as the TimelineDeleted handler does), so an add and the timeline's deletion never cross.
 */
export class CollectionRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Whether the viewer may see the owner's things: as far as privacy goes (private-accounts/private-account-sql.ts),
   * and, for anyone but the owner, while the owner is not suspended (read-rules/moderation-filters.ts).
   */
  async seenDespitePrivacy(ownerId: string, viewerId: string | undefined, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const [row] = (await manager.query(
      `SELECT ${seenDespitePrivacySql('$1::uuid', '$2::uuid')} AND ($1::uuid IS NOT DISTINCT FROM $2::uuid OR ${authorNotSuspended('$2::uuid')}) AS seen`,
      [viewerId ?? null, ownerId],
    )) as Array<{ seen: boolean }>;
    return row?.seen ?? false;
  }

  async find(id: string, manager: EntityManager = this.dataSource.manager): Promise<CollectionRow | null> {
    const [row] = (await manager.query(`SELECT ${COLUMNS} FROM collections c WHERE c.id = $1`, [id])) as RawCollection[];
    return row ? toRow(row) : null;
  }

  /** The collection with its row locked for the rest of the transaction; null when there is none. */
  async lock(manager: EntityManager, id: string): Promise<CollectionRow | null> {
    const [row] = (await manager.query(`SELECT ${COLUMNS} FROM collections c WHERE c.id = $1 FOR UPDATE`, [id])) as RawCollection[];
    return row ? toRow(row) : null;
  }

  /** A person's collections, newest first, after the cursor key; `contains` says whether each holds the timeline. */
  async list(userId: string, limit: number, after?: CursorKey, timelineId?: string): Promise<Array<CollectionRow & { contains: boolean }>> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS},
              ($5::uuid IS NOT NULL AND EXISTS (SELECT 1 FROM collection_timelines ct WHERE ct.collection_id = c.id AND ct.timeline_id = $5::uuid)) AS contains
         FROM collections c
        WHERE c.user_id = $1 AND ($3::timestamptz IS NULL OR (c.created_at, c.id) < ($3::timestamptz, $4::uuid))
        ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
      [userId, limit, after?.[0] ?? null, after?.[1] ?? null, timelineId ?? null],
    )) as Array<RawCollection & { contains: boolean }>;
    return rows.map(({ contains, ...raw }) => ({ ...toRow(raw), contains }));
  }

  async insert(collection: { id: string; userId: string; name: string; description: string | null; isPublic: boolean }): Promise<void> {
    await this.dataSource.query('INSERT INTO collections (id, user_id, name, description, is_public) VALUES ($1, $2, $3, $4, $5)', [
      collection.id, collection.userId, collection.name, collection.description, collection.isPublic,
    ]);
  }

  /** Changes what is given (the row must be locked); updated_at moves only when something really changed. */
  async update(manager: EntityManager, id: string, change: { name?: string; description?: string | null; isPublic?: boolean }): Promise<void> {
    await manager.query(
      `UPDATE collections SET name = $2, description = $3, is_public = $4, updated_at = now()
        WHERE id = $1 AND (name, description, is_public) IS DISTINCT FROM ($2, $3, $4)`,
      [id, change.name, change.description, change.isPublic],
    );
  }

  /** Deletes a collection with its timeline rows (the row must be locked). */
  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query('DELETE FROM collection_timelines WHERE collection_id = $1', [id]);
    await manager.query('DELETE FROM collections WHERE id = $1', [id]);
  }

  /** The collection's timelines in order. */
  async items(collectionId: string, manager: EntityManager = this.dataSource.manager): Promise<CollectionItemRow[]> {
    return (await manager.query(
      `SELECT ${ITEM_COLUMNS} FROM collection_timelines WHERE collection_id = $1 ORDER BY position, added_at, timeline_id`,
      [collectionId],
    )) as CollectionItemRow[];
  }

  /**
   * Takes the timeline's feed lock, then the collection's: the order of the TimelineDeleted
   * handler. Null when the collection is gone.
   */
  async lockForAdd(manager: EntityManager, collectionId: string, timelineId: string): Promise<CollectionRow | null> {
    await lockFeedTimeline(manager, timelineId);
    return this.lock(manager, collectionId);
  }

  /**
   * Appends the timeline at the end (both locks of lockForAdd must be held). `created` is false
   * when it was already there (nothing changes) or the timeline has been deleted (`item` null).
   */
  async add(manager: EntityManager, collectionId: string, timelineId: string): Promise<{ created: boolean; item: CollectionItemRow | null }> {
    const [inserted] = (await manager.query(
      `WITH r AS (
         INSERT INTO collection_timelines (collection_id, timeline_id, position)
         SELECT $1, $2, coalesce((SELECT max(position) + 1 FROM collection_timelines WHERE collection_id = $1), 0)
          WHERE NOT EXISTS (SELECT 1 FROM deleted_timelines WHERE id = $2)
         ON CONFLICT DO NOTHING
         RETURNING ${ITEM_COLUMNS})
       SELECT * FROM r`,
      [collectionId, timelineId],
    )) as CollectionItemRow[];
    if (inserted) {
      await manager.query('UPDATE collections SET timelines_count = timelines_count + 1 WHERE id = $1', [collectionId]);
      return { created: true, item: inserted };
    }
    const [existing] = (await manager.query(`SELECT ${ITEM_COLUMNS} FROM collection_timelines WHERE collection_id = $1 AND timeline_id = $2`, [collectionId, timelineId])) as CollectionItemRow[];
    return { created: false, item: existing ?? null };
  }

  /** Takes the timeline out (the collection row must be locked); false when it was not there. */
  async remove(manager: EntityManager, collectionId: string, timelineId: string): Promise<boolean> {
    const gone: unknown[] = await manager.query(
      'WITH r AS (DELETE FROM collection_timelines WHERE collection_id = $1 AND timeline_id = $2 RETURNING 1) SELECT * FROM r',
      [collectionId, timelineId],
    );
    if (gone.length === 0) return false;
    await manager.query('UPDATE collections SET timelines_count = greatest(timelines_count - 1, 0) WHERE id = $1', [collectionId]);
    return true;
  }

  /**
   * Sets positions 0..n-1 in the order given (the collection row must be locked). False, changing
   * nothing, unless `timelineIds` lists every timeline of the collection exactly once.
   */
  async reorder(manager: EntityManager, collectionId: string, timelineIds: string[]): Promise<boolean> {
    const current = await this.items(collectionId, manager);
    const wanted = new Set(timelineIds);
    if (wanted.size !== timelineIds.length || current.length !== timelineIds.length || current.some((item) => !wanted.has(item.timelineId))) return false;
    await manager.query(
      `UPDATE collection_timelines ct SET position = o.ord - 1
         FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord)
        WHERE ct.collection_id = $1 AND ct.timeline_id = o.id AND ct.position IS DISTINCT FROM o.ord - 1`,
      [collectionId, timelineIds],
    );
    return true;
  }

  /**
   * A deleted timeline leaves every collection: each holding it is locked (in id order, after the
   * timeline's feed lock, which the caller holds) and counted down.
   */
  async forgetTimeline(manager: EntityManager, timelineId: string): Promise<void> {
    const holders = (await manager.query('SELECT collection_id AS id FROM collection_timelines WHERE timeline_id = $1', [timelineId])) as Array<{ id: string }>;
    if (holders.length === 0) return;
    await manager.query('SELECT id FROM collections WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [holders.map((h) => h.id)]);
    await manager.query(
      `WITH gone AS (DELETE FROM collection_timelines WHERE timeline_id = $1 RETURNING collection_id)
       UPDATE collections c SET timelines_count = greatest(c.timelines_count - g.n, 0)
         FROM (SELECT collection_id, count(*)::int AS n FROM gone GROUP BY collection_id) g
        WHERE c.id = g.collection_id`,
      [timelineId],
    );
  }
}
