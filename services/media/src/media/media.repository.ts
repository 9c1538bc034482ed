import type { DataSource, EntityManager } from 'typeorm';
import { Media } from './media.entity.js';

/** A media row as far as queuing its processing goes. */
export interface QueueableMedia {
  id: string;
  timelineId: string;
  mediaType: Media['mediaType'];
  filename: string;
  mimeType: string;
}

/** A stored original about to become a media item (`processing` until the worker is done). */
export interface NewMedia {
  id: string;
  timelineId: string;
  uploaderId: string;
  /** The original's object key. */
  filename: string;
  originalName: string;
  title: string;
  mediaType: Media['mediaType'];
  size: number;
  /** The type the content was recognised as. */
  mimeType: string;
}

/** Most media a timeline may list: bounds every list and reorder. */
const TIMELINE_MEDIA = 1000;

/** Rows of an `UPDATE ... RETURNING` or `DELETE ... RETURNING` (TypeORM answers [rows, count]). */
export const returned = (raw: unknown): unknown[] => (Array.isArray(raw) && Array.isArray(raw[0]) ? raw[0] : Array.isArray(raw) ? raw : []);

/** The `media` table: a timeline's videos and images, their order, and where their processing stands. */
export class MediaRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager: EntityManager = this.dataSource.manager) {
    return manager.getRepository(Media);
  }

  /** The timeline's media (or only its videos or images) in timeline order. */
  ordered(timelineId: string, type?: Media['mediaType']): Promise<Media[]> {
    return this.repo().find({
      where: { timelineId, ...(type ? { mediaType: type } : {}) },
      order: { position: 'ASC', uploadedAt: 'ASC', id: 'ASC' },
      take: TIMELINE_MEDIA,
    });
  }

  /** Ids of the timeline's processed videos, in timeline order (what an export takes). */
  async completedVideoIds(timelineId: string): Promise<string[]> {
    const videos = await this.repo().find({
      select: { id: true },
      where: { timelineId, mediaType: 'video', status: 'completed' },
      order: { position: 'ASC', uploadedAt: 'ASC', id: 'ASC' },
      take: TIMELINE_MEDIA,
    });
    return videos.map((v) => v.id);
  }

  find(id: string, manager?: EntityManager): Promise<Media | null> {
    return this.repo(manager).findOneBy({ id });
  }

  findIn(manager: EntityManager | undefined, ids: string[]): Promise<Media[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.repo(manager).findBy(ids.map((id) => ({ id })));
  }

  /** Numbers the given media of the timeline 0, 1, 2 ... in this order. */
  async setPositions(manager: EntityManager, timelineId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await manager.query(
      `UPDATE media m SET position = o.position - 1, updated_at = now()
         FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, position)
        WHERE m.id = o.id AND m.timeline_id = $1`,
      [timelineId, ids],
    );
  }

  async setTitle(id: string, title: string): Promise<void> {
    await this.repo().update({ id }, { title });
  }

  async setSensitive(id: string, sensitive: boolean): Promise<void> {
    await this.repo().update({ id }, { sensitive });
  }

  /** Sets the alt text, one version up; answers that version, or null when the row was gone. */
  async setAltText(manager: EntityManager, id: string, altText: string): Promise<string | null> {
    const [row] = returned(await manager.query(
      'UPDATE media SET alt_text = $2, alt_text_version = alt_text_version + 1 WHERE id = $1 RETURNING alt_text_version::text AS version',
      [id, altText],
    )) as Array<{ version: string }>;
    return row?.version ?? null;
  }

  /** Applies the moderation desk's decision unless a newer one was applied; false when nothing changed. */
  async applyModeration(manager: EntityManager, id: string, state: { hidden: boolean; sensitive: boolean }, version: bigint): Promise<boolean> {
    return returned(await manager.query(
      'UPDATE media SET moderated_hidden = $2, moderated_sensitive = $3, moderation_version = $4 WHERE id = $1 AND moderation_version < $4 RETURNING id',
      [id, state.hidden, state.sensitive, version.toString()],
    )).length > 0;
  }

  /** False when the row was gone already. */
  async delete(manager: EntityManager, id: string): Promise<boolean> {
    return returned(await manager.query('DELETE FROM media WHERE id = $1 RETURNING id', [id])).length > 0;
  }

  /** Inserts the row at the end of its timeline; false when it exists already (a finisher got there first). */
  async insertUploaded(manager: EntityManager, media: NewMedia): Promise<boolean> {
    const rows = returned(await manager.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'processing',
               (SELECT coalesce(max(position), -1) + 1 FROM media WHERE timeline_id = $2), now())
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [media.id, media.timelineId, media.uploaderId, media.filename, media.originalName, media.title, media.mediaType, media.size, media.mimeType],
    ));
    return rows.length > 0;
  }

  /** How many of this person's media wait for processing (queued, running or waiting their turn). */
  async pendingOf(uploaderId: string): Promise<number> {
    const [{ n }] = (await this.dataSource.query(`SELECT count(*)::int AS n FROM media WHERE uploader_id = $1 AND status = 'processing'`, [uploaderId])) as [{ n: number }];
    return n;
  }

  // --- turns between people on the processing queue (FairProcessing) ------------------------------

  /** Whose the media is and whether it is queued; null when it is gone. */
  async turnOf(manager: EntityManager, id: string): Promise<{ uploaderId: string; status: string; queuedAt: Date | null } | null> {
    const [row] = (await manager.query(`SELECT uploader_id AS "uploaderId", status, queued_at AS "queuedAt" FROM media WHERE id = $1`, [id])) as Array<{
      uploaderId: string;
      status: string;
      queuedAt: Date | null;
    }>;
    return row ?? null;
  }

  /** One decision about a person's turns at a time, until the transaction ends. */
  async lockTurns(manager: EntityManager, uploaderId: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`media-turns:${uploaderId}`]);
  }

  /** The person's media in the work queue (queued or running), but `exceptId`. */
  async queuedOf(manager: EntityManager, uploaderId: string, exceptId: string): Promise<number> {
    const [{ queued }] = (await manager.query(
      `SELECT count(*)::int AS queued FROM media WHERE uploader_id = $1 AND status = 'processing' AND queued_at IS NOT NULL AND id <> $2`,
      [uploaderId, exceptId],
    )) as [{ queued: number }];
    return queued;
  }

  /** Notes that the media's job is in the work queue (once). */
  async markQueued(id: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('UPDATE media SET queued_at = now() WHERE id = $1 AND queued_at IS NULL', [id]);
  }

  /** The oldest waiting media of every person (or of those given) with fewer than `perPerson` in the work queue. */
  async nextTurns(perPerson: number, uploaderIds?: string[]): Promise<QueueableMedia[]> {
    return (await this.dataSource.query(
      `SELECT DISTINCT ON (w.uploader_id) w.id, w.timeline_id AS "timelineId", w.media_type AS "mediaType", w.filename, w.mime_type AS "mimeType"
         FROM media w
        WHERE w.status = 'processing' AND w.queued_at IS NULL AND w.uploaded_at IS NOT NULL
          AND ($1::uuid[] IS NULL OR w.uploader_id = ANY($1::uuid[]))
          AND (SELECT count(*) FROM media q WHERE q.uploader_id = w.uploader_id AND q.status = 'processing' AND q.queued_at IS NOT NULL) < $2
        ORDER BY w.uploader_id, w.uploaded_at, w.id
        LIMIT 1000`,
      [uploaderIds ?? null, perPerson],
    )) as QueueableMedia[];
  }

  /** Stored uploads whose job was never handed to the queue (it failed), uploaded before `before`. */
  async neverQueued(before: Date): Promise<QueueableMedia[]> {
    return (await this.dataSource.query(
      `SELECT id, timeline_id AS "timelineId", media_type AS "mediaType", filename, mime_type AS "mimeType" FROM media
        WHERE status = 'processing' AND queued_at IS NULL AND uploaded_at < $1 LIMIT 100`,
      [before],
    )) as QueueableMedia[];
  }

  /** Changes columns of one media row; false when the row is gone. */
  async update(id: string, changes: Partial<Media>, manager?: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).update({ id }, changes as never);
    return (result.affected ?? 0) > 0;
  }

  /**
   * Holds the processing lock of one media (a session-level advisory lock on a connection of its
   * own, kept for the whole job): answers the function that releases it, or null when another
   * worker holds it. `onReleaseFailure` hears of a release that failed (the lock then goes with the connection).
   */
  async tryLockProcessing(mediaId: string, onReleaseFailure: (error: unknown) => void): Promise<(() => Promise<void>) | null> {
    const key = `media-processing:${mediaId}`;
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [row] = (await runner.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key])) as Array<{ locked: boolean }>;
      if (row?.locked) {
        return async () => {
          try {
            await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
          } catch (error) {
            onReleaseFailure(error);
          } finally {
            await runner.release();
          }
        };
      }
    } catch (error) {
      await runner.release();
      throw error;
    }
    await runner.release();
    return null;
  }

  /** Media handed to the work queue whose processing is not over, oldest first (the worker checks their jobs are still there). */
  queuedProcessing(limit: number): Promise<QueueableMedia[]> {
    return this.dataSource.query(
      `SELECT id, timeline_id AS "timelineId", media_type AS "mediaType", filename, mime_type AS "mimeType"
         FROM media WHERE status = 'processing' AND queued_at IS NOT NULL ORDER BY queued_at LIMIT $1`,
      [limit],
    ) as Promise<QueueableMedia[]>;
  }

  // --- the storage sweep ------------------------------------------------------------------------

  /** Media whose processing ended before `before` and whose outputs were not measured yet. */
  async unmeasured(before: Date, limit: number): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM media WHERE status IN ('completed', 'error') AND renditions_measured_at IS NULL AND processed_at < $1 ORDER BY processed_at LIMIT $2`,
      [before, limit],
    )) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  async setRenditionBytes(id: string, bytes: number): Promise<void> {
    await this.dataSource.query('UPDATE media SET rendition_bytes = $2, renditions_measured_at = now() WHERE id = $1 AND renditions_measured_at IS NULL', [id, bytes]);
  }

  /** Failed media whose original is still stored, failed before `before`. */
  failedOriginals(before: Date, limit: number): Promise<Array<{ id: string; filename: string }>> {
    return this.dataSource.query(
      `SELECT id, filename FROM media WHERE status = 'error' AND original_deleted_at IS NULL AND coalesce(processed_at, updated_at) < $1 ORDER BY processed_at LIMIT $2`,
      [before, limit],
    ) as Promise<Array<{ id: string; filename: string }>>;
  }

  async markOriginalDeleted(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE media SET original_deleted_at = now() WHERE id = $1 AND status = 'error' AND original_deleted_at IS NULL`, [id]);
  }

  // --- a deleted timeline -----------------------------------------------------------------------

  async idsOfTimeline(manager: EntityManager, timelineId: string): Promise<string[]> {
    const rows = (await manager.query('SELECT id FROM media WHERE timeline_id = $1', [timelineId])) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  async deleteTimeline(manager: EntityManager, timelineId: string): Promise<void> {
    await manager.query('DELETE FROM media WHERE timeline_id = $1', [timelineId]);
  }
}
