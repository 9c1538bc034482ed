import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

export interface HistoryRow {
  id: string;
  query: string;
  resultType: string | null;
  resultId: string | null;
  searchedAt: string;
}

/** Entries kept per person; older ones go as new ones come. */
export const HISTORY_KEPT = 50;
/** A search that extends or shortens the one just before, this soon after it, replaces it (typing, not a new search). */
export const REFINEMENT_WINDOW_SECONDS = 120;

const COLUMNS = `id, query, result_type AS "resultType", result_id AS "resultId", to_char(searched_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "searchedAt"`;

/** A search to record, and who waits for it. */
interface Recording {
  query: string;
  normalized: string;
  result?: { type: string; id: string };
  done: () => void;
  failed: (error: unknown) => void;
}

export class SearchHistoryRepository {
  /** Per person on this replica: the searches waiting to be written, and whether a write is under way. */
  private readonly people = new Map<string, { waiting: Recording[]; writing: boolean }>();

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records a search: the same query again moves to the top; one that refines the latest (a
   * longer or shorter form of it, moments later) takes its place, so typing "sup", "super",
   * "superman" leaves one entry.
   *
   * One person's recordings are written one transaction at a time, in the order of their searches,
   * each transaction writing all that came while the one before it was under way. They wait here,
   * in memory, not in the database: a queue of transactions waiting on the person's lock would hold
   * a connection each, and a quick typist (or a script) could take every connection of the pool
   * from everyone's searches; and one commit per search would make a person's searches no quicker
   * than their history's writes. The lock stays for the other replicas.
   */
  record(userId: string, query: string, normalized: string, result?: { type: string; id: string }): Promise<void> {
    return new Promise<void>((done, failed) => {
      const person = this.people.get(userId) ?? { waiting: [], writing: false };
      this.people.set(userId, person);
      person.waiting.push({ query, normalized, ...(result ? { result } : {}), done, failed });
      if (!person.writing) void this.writeWaiting(userId, person);
    });
  }

  private async writeWaiting(userId: string, person: { waiting: Recording[]; writing: boolean }): Promise<void> {
    person.writing = true;
    while (person.waiting.length > 0) {
      const batch = person.waiting.splice(0);
      try {
        await this.write(userId, batch);
        for (const recording of batch) recording.done();
      } catch (error) {
        for (const recording of batch) recording.failed(error);
      }
    }
    person.writing = false;
    this.people.delete(userId);
  }

  private async write(userId: string, batch: Recording[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      // One person's recordings one at a time: two tabs searching at once cannot both insert.
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`search_history:${userId}`]);
      for (const { query, normalized, result } of batch) {
        await manager.query(
          `DELETE FROM search_history WHERE id IN (
             SELECT id FROM search_history WHERE user_id = $1 AND searched_at > now() - make_interval(secs => $3) AND normalized_query <> $2
                AND (starts_with($2, normalized_query) OR starts_with(normalized_query, $2))
             ORDER BY searched_at DESC LIMIT 1)
           AND id = (SELECT id FROM search_history WHERE user_id = $1 ORDER BY searched_at DESC, id LIMIT 1)`,
          [userId, normalized, REFINEMENT_WINDOW_SECONDS],
        );
        await manager.query(
          `INSERT INTO search_history (id, user_id, query, normalized_query, result_type, result_id, searched_at) VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp())
           ON CONFLICT (user_id, normalized_query) DO UPDATE SET query = EXCLUDED.query, searched_at = EXCLUDED.searched_at,
             result_type = COALESCE(EXCLUDED.result_type, search_history.result_type), result_id = COALESCE(EXCLUDED.result_id, search_history.result_id)`,
          [randomUUID(), userId, query, normalized, result?.type ?? null, result?.id ?? null],
        );
      }
      await manager.query(
        `DELETE FROM search_history WHERE user_id = $1 AND id NOT IN (SELECT id FROM search_history WHERE user_id = $1 ORDER BY searched_at DESC, id LIMIT $2)`,
        [userId, HISTORY_KEPT],
      );
    });
  }

  async list(userId: string, limit: number): Promise<HistoryRow[]> {
    return (await this.dataSource.query(`SELECT ${COLUMNS} FROM search_history WHERE user_id = $1 ORDER BY searched_at DESC, id LIMIT $2`, [userId, limit])) as HistoryRow[];
  }

  async clear(userId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM search_history WHERE user_id = $1`, [userId]);
  }

  /** Removes one of the person's own entries; false when they have no such entry. */
  async remove(userId: string, id: string): Promise<boolean> {
    const [, deleted] = (await this.dataSource.query(`DELETE FROM search_history WHERE id = $1 AND user_id = $2`, [id, userId])) as [unknown, number];
    return deleted > 0;
  }
}
