import type { DataSource, EntityManager } from 'typeorm';
import { DataExport, type DataExportPhase } from './data-export.entity.js';

/** An original file that goes into a person's archive. */
export interface ArchivedOriginal {
  id: string;
  timelineId: string;
  objectKey: string;
  originalName: string;
  mimeType: string;
  fileSize: number;
}

/** `data_exports`: a person's "Download your data" archives; and the media rows that go into them. */
export class DataExportRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager: EntityManager = this.dataSource.manager) {
    return manager.getRepository(DataExport);
  }

  find(id: string): Promise<DataExport | null> {
    return this.repo().findOneBy({ id });
  }

  /** The person's newest archive, whatever its state. */
  latestOf(userId: string): Promise<DataExport | null> {
    return this.repo().findOne({ where: { userId }, order: { createdAt: 'DESC' } });
  }

  /** One decision about a person's archives at a time, until `manager`'s transaction ends. */
  async lockPerson(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`data-export:${userId}`]);
  }

  /** When the person's newest archive started since `since` that did not fail (the one that counts against the daily limit). */
  async lastCountedSince(manager: EntityManager, userId: string, since: Date): Promise<Date | null> {
    const [row] = (await manager.query(
      `SELECT created_at AS "createdAt" FROM data_exports WHERE user_id = $1 AND created_at > $2 AND status <> 'error' ORDER BY created_at DESC LIMIT 1`,
      [userId, since],
    )) as Array<{ createdAt: Date }>;
    return row?.createdAt ?? null;
  }

  async insertQueued(manager: EntityManager, row: { id: string; userId: string; fileName: string }, now: Date): Promise<DataExport> {
    const created = this.repo(manager).create({ ...row, status: 'queued', phase: 'waiting', progress: 0, objectKey: null, sizeBytes: null, error: null, createdAt: now, completedAt: null, expiresAt: null });
    await this.repo(manager).insert(created);
    return created;
  }

  /** The worker takes a queued (or retried) archive: `processing`, from the start. False when it is not there to take. */
  async start(id: string): Promise<boolean> {
    const [, changed] = (await this.dataSource.query(
      `UPDATE data_exports SET status = 'processing', phase = 'records', progress = 0 WHERE id = $1 AND status IN ('queued', 'processing')`,
      [id],
    )) as [unknown, number];
    return changed > 0;
  }

  /** How far the worker is; the percentage never goes backwards. */
  async setProgress(id: string, phase: DataExportPhase, progress: number): Promise<void> {
    await this.dataSource.query(`UPDATE data_exports SET phase = $2, progress = GREATEST(progress, $3) WHERE id = $1 AND status = 'processing'`, [id, phase, progress]);
  }

  async complete(id: string, objectKey: string, sizeBytes: number, completedAt: Date, expiresAt: Date): Promise<boolean> {
    const [, changed] = (await this.dataSource.query(
      `UPDATE data_exports SET status = 'completed', phase = 'done', progress = 100, object_key = $2, size_bytes = $3, completed_at = $4, expires_at = $5, error = NULL
        WHERE id = $1 AND status = 'processing'`,
      [id, objectKey, sizeBytes, completedAt, expiresAt],
    )) as [unknown, number];
    return changed > 0;
  }

  async fail(id: string, error: string): Promise<void> {
    await this.dataSource.query(`UPDATE data_exports SET status = 'error', error = $2, completed_at = now() WHERE id = $1 AND status IN ('queued', 'processing')`, [id, error]);
  }

  /**
   * The person's archives still queued or running since before `before`: their job was lost (a
   * restart of a single-process install loses its in-memory queue). They fail, so the person may
   * start again rather than wait a day for an archive that never comes.
   */
  async failStale(userId: string, before: Date, error: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE data_exports SET status = 'error', error = $3, completed_at = now() WHERE user_id = $1 AND status IN ('queued', 'processing') AND created_at < $2`,
      [userId, before, error],
    );
  }

  /** Completed archives whose time is up, oldest first. */
  async expired(now: Date, limit: number): Promise<Array<{ id: string; objectKey: string | null }>> {
    return (await this.dataSource.query(
      `SELECT id, object_key AS "objectKey" FROM data_exports WHERE status = 'completed' AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
      [now, limit],
    )) as Array<{ id: string; objectKey: string | null }>;
  }

  /** The archive's file is gone: the row stays, for the daily limit and the settings page. */
  async markExpired(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE data_exports SET status = 'expired', object_key = NULL WHERE id = $1 AND status = 'completed'`, [id]);
  }

  /** The media items of these timelines, in each timeline's order (their metadata goes into timelines.json). */
  async itemsOf(timelineIds: string[]): Promise<Array<Record<string, unknown> & { timelineId: string }>> {
    if (timelineIds.length === 0) return [];
    return (await this.dataSource.query(
      `SELECT id, timeline_id AS "timelineId", position, media_type AS "type", title, alt_text AS "altText", original_name AS "originalName", mime_type AS "mimeType",
              file_size AS "fileSize", duration, status, metadata, uploader_id AS "uploaderId", created_at AS "createdAt",
              (original_deleted_at IS NULL AND status <> 'uploading') AS "hasOriginal"
         FROM media WHERE timeline_id = ANY($1::uuid[]) ORDER BY timeline_id, position, created_at, id`,
      [timelineIds],
    )) as Array<Record<string, unknown> & { timelineId: string }>;
  }

  /** The originals the person uploaded that are still stored, one page after `afterId` in id order. */
  async originalsOf(userId: string, afterId: string | null, limit: number): Promise<ArchivedOriginal[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, timeline_id AS "timelineId", filename AS "objectKey", original_name AS "originalName", mime_type AS "mimeType", file_size AS "fileSize"
         FROM media WHERE uploader_id = $1 AND original_deleted_at IS NULL AND status <> 'uploading' AND ($2::uuid IS NULL OR id > $2::uuid)
        ORDER BY id LIMIT $3`,
      [userId, afterId, limit],
    )) as Array<ArchivedOriginal & { fileSize: string | number }>;
    return rows.map((row) => ({ ...row, fileSize: Number(row.fileSize) }));
  }

  /** Bytes of the originals the person uploaded that are still stored (the archive's progress is counted against it). */
  async originalBytesOf(userId: string): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT coalesce(sum(file_size), 0)::bigint AS bytes FROM media WHERE uploader_id = $1 AND original_deleted_at IS NULL AND status <> 'uploading'`,
      [userId],
    )) as Array<{ bytes: string }>;
    return Number(row?.bytes ?? 0);
  }
}
