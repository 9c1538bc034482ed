import type { DataSource, EntityManager } from 'typeorm';
import { returned } from '../media/media.repository.js';
import { type UploadedPart, UploadSession } from './upload-session.entity.js';

/** Where an upload stood when a request started: the offset moves only from there. */
export interface SessionPosition {
  receivedBytes: number;
  receivedChunks: number;
}

/** Where it stands after a part or tail is stored. */
export interface SessionAdvance {
  receivedBytes: number;
  mimeType: string;
  expiresAt: Date;
}

/**
 * `upload_sessions`: the state of resumable uploads, so any replica continues any upload. Every
 * change of the offset is conditional on the position the request started from, so of two
 * requests racing for one upload only one moves it.
 */
export class UploadSessionRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager: EntityManager = this.dataSource.manager) {
    return manager.getRepository(UploadSession);
  }

  find(id: string): Promise<UploadSession | null> {
    return this.repo().findOneBy({ id });
  }

  /** A session row, not yet stored. */
  build(session: Partial<UploadSession>): UploadSession {
    return this.repo().create(session);
  }

  async insert(manager: EntityManager, session: UploadSession): Promise<void> {
    await this.repo(manager).insert(session);
  }

  /** The person's uploads in progress (active and not expired). */
  async activeCount(userId: string): Promise<number> {
    const [{ n }] = (await this.dataSource.query(`SELECT count(*)::int AS n FROM upload_sessions WHERE user_id = $1 AND status = 'active' AND expires_at > now()`, [userId])) as [{ n: number }];
    return n;
  }

  /**
   * Records a stored part (appended to `chunks`, the tail dropped) and moves the offset to
   * `next.receivedBytes`; false when another request moved the upload since `from`.
   */
  recordPart(id: string, from: SessionPosition, next: SessionAdvance, part: UploadedPart): Promise<boolean> {
    return this.advance(id, from, next, `chunks = chunks || $7::jsonb, received_chunks = received_chunks + 1, tail_key = NULL, tail_size = 0`, [
      JSON.stringify([{ partNumber: part.partNumber, etag: part.etag, size: part.size }]),
    ]);
  }

  /** Records the bytes past the last part as the tail stored under `tailKey`; false as `recordPart`. */
  recordTail(id: string, from: SessionPosition, next: SessionAdvance, tailKey: string, tailSize: number): Promise<boolean> {
    return this.advance(id, from, next, `tail_key = $7, tail_size = $8`, [tailKey, tailSize]);
  }

  private async advance(id: string, from: SessionPosition, next: SessionAdvance, set: string, params: unknown[]): Promise<boolean> {
    const rows = returned(await this.dataSource.query(
      `UPDATE upload_sessions SET ${set}, received_bytes = $2, mime_type = $3, expires_at = $4, updated_at = now()
        WHERE id = $1 AND status = 'active' AND received_bytes = $5 AND received_chunks = $6 RETURNING id`,
      [id, next.receivedBytes, next.mimeType, next.expiresAt, from.receivedBytes, from.receivedChunks, ...params],
    ));
    return rows.length > 0;
  }

  /** Marks an active session completed (in the transaction that makes its media); false when it was not active any more. */
  async complete(manager: EntityManager, id: string): Promise<boolean> {
    return returned(await manager.query(
      `UPDATE upload_sessions SET status = 'completed', tail_key = NULL, tail_size = 0, updated_at = now() WHERE id = $1 AND status = 'active' RETURNING id`, [id],
    )).length > 0;
  }

  /** Ends an active session as cancelled or expired (expired only if it still expired before `before`); false when it was not active. */
  async end(id: string, status: 'cancelled' | 'expired', before?: Date): Promise<boolean> {
    return returned(await this.dataSource.query(
      `UPDATE upload_sessions SET status = $2, tail_key = NULL, tail_size = 0, updated_at = now() WHERE id = $1 AND status = 'active'${before ? ' AND expires_at < $3' : ''} RETURNING id`,
      before ? [id, status, before] : [id, status],
    )).length > 0;
  }

  /** Ids of active sessions that expired before `now` without all their bytes. */
  async expired(now: Date): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM upload_sessions WHERE status = 'active' AND expires_at < $1 AND received_bytes < total_size ORDER BY expires_at LIMIT 500`, [now],
    )) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  /** Whether an active session owns the store's multipart upload. */
  async ownsMultipart(multipartId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT 1 FROM upload_sessions WHERE multipart_id = $1 AND status = 'active'`, [multipartId])) as unknown[];
    return rows.length > 0;
  }

  /** Ids of active sessions holding all their bytes, untouched since `before` (their finishing was interrupted). */
  async unfinished(before: Date): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM upload_sessions WHERE status = 'active' AND received_bytes = total_size AND updated_at < $1 LIMIT 100`, [before],
    )) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  // --- a deleted timeline -----------------------------------------------------------------------

  activeOfTimeline(manager: EntityManager, timelineId: string): Promise<Array<{ id: string; filename: string; multipartId: string | null }>> {
    return manager.query(
      `SELECT id, filename, multipart_id AS "multipartId" FROM upload_sessions WHERE timeline_id = $1 AND status = 'active'`, [timelineId],
    ) as Promise<Array<{ id: string; filename: string; multipartId: string | null }>>;
  }

  async cancelTimeline(manager: EntityManager, timelineId: string): Promise<void> {
    await manager.query(`UPDATE upload_sessions SET status = 'cancelled', tail_key = NULL, tail_size = 0, updated_at = now() WHERE timeline_id = $1 AND status = 'active'`, [timelineId]);
  }
}
