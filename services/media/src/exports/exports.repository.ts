import type { DataSource, EntityManager } from 'typeorm';
import { Export, type ExportStatus } from './export.entity.js';

/** An export of the same content, made or in the making, that a new request may reuse. */
export interface SameExport {
  id: string;
  status: string;
  fileName: string;
  objectKey: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

/** `exports`: one row per export asked for; rows of the same content may share one file. */
export class ExportRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager: EntityManager = this.dataSource.manager) {
    return manager.getRepository(Export);
  }

  find(id: string): Promise<Export | null> {
    return this.repo().findOneBy({ id });
  }

  /** The timeline of an export, or null when it is gone. */
  async timelineOf(id: string, manager: EntityManager = this.dataSource.manager): Promise<string | null> {
    const [row] = (await manager.query('SELECT timeline_id FROM exports WHERE id = $1', [id])) as Array<{ timeline_id: string }>;
    return row?.timeline_id ?? null;
  }

  /** One decision about a person's exports at a time, until `manager`'s transaction ends. */
  async lockPerson(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`export:${userId}`]);
  }

  /**
   * The export of the same content (`contentKey`) of the timeline to hand out again: completed
   * since `completedSince`, or queued or running since `runningSince`; the one under `fileName`
   * first, then a completed one, then the newest.
   */
  async same(manager: EntityManager, timelineId: string, contentKey: string, fileName: string, completedSince: Date, runningSince: Date): Promise<SameExport | null> {
    const [same] = (await manager.query(
      `SELECT id, status, file_name AS "fileName", object_key AS "objectKey", created_at AS "createdAt", completed_at AS "completedAt" FROM exports
        WHERE timeline_id = $1 AND content_key = $2 AND created_at > $3
          AND (status = 'completed' OR (status IN ('queued', 'processing') AND created_at > $4))
        ORDER BY (file_name = $5) DESC, (status = 'completed') DESC, created_at DESC LIMIT 1`,
      [timelineId, contentKey, completedSince, runningSince, fileName],
    )) as SameExport[];
    return same ?? null;
  }

  /** A completed export's file under another name: a row of its own sharing the file and its times. */
  async insertCopy(manager: EntityManager, copy: { id: string; timelineId: string; requestedBy: string; fileName: string; maxHeight: number; contentKey: string }, of: SameExport): Promise<void> {
    await manager.query(
      `INSERT INTO exports (id, timeline_id, requested_by, status, object_key, file_name, max_height, content_key, created_at, completed_at)
       VALUES ($1, $2, $3, 'completed', $4, $5, $6, $7, $8, $9)`,
      [copy.id, copy.timelineId, copy.requestedBy, of.objectKey, copy.fileName, copy.maxHeight, copy.contentKey, of.createdAt, of.completedAt],
    );
  }

  /** Exports queued or running since `since`: the person's, and the timeline's. */
  async running(manager: EntityManager, userId: string, timelineId: string, since: Date): Promise<{ mine: number; timeline: number }> {
    const [running] = (await manager.query(
      `SELECT count(*) FILTER (WHERE requested_by = $1)::int AS mine, count(*) FILTER (WHERE timeline_id = $2)::int AS timeline
         FROM exports WHERE status IN ('queued', 'processing') AND created_at > $3 AND (requested_by = $1 OR timeline_id = $2)`,
      [userId, timelineId, since],
    )) as Array<{ mine: number; timeline: number }>;
    return running!;
  }

  /** A new export, queued. */
  async insertQueued(manager: EntityManager, row: { id: string; timelineId: string; requestedBy: string; fileName: string; maxHeight: number; contentKey: string }): Promise<Export> {
    const created = this.repo(manager).create({ ...row, status: 'queued', objectKey: null, error: null, completedAt: null });
    await this.repo(manager).insert(created);
    return created;
  }

  async setStatus(id: string, status: ExportStatus, error: string | null = null): Promise<void> {
    await this.repo().update({ id }, { status, ...(error !== null ? { error } : {}) });
  }

  /** Changes columns of one export (only while its status is `whileStatus`, when given). */
  async update(id: string, changes: Partial<Export>, options: { manager?: EntityManager; whileStatus?: ExportStatus } = {}): Promise<void> {
    await this.repo(options.manager).update({ id, ...(options.whileStatus ? { status: options.whileStatus } : {}) }, changes as never);
  }

  /** Ids of exports made before `before`, oldest first. */
  async olderThan(before: Date, limit: number): Promise<string[]> {
    const rows = (await this.dataSource.query('SELECT id FROM exports WHERE created_at < $1 ORDER BY created_at LIMIT $2', [before, limit])) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  async idsOfTimeline(manager: EntityManager, timelineId: string): Promise<string[]> {
    const rows = (await manager.query('SELECT id FROM exports WHERE timeline_id = $1', [timelineId])) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  async delete(ids: string[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    if (ids.length > 0) await manager.query('DELETE FROM exports WHERE id = ANY($1::uuid[])', [ids]);
  }
}
