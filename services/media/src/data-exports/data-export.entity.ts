import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type DataExportStatus = 'queued' | 'processing' | 'completed' | 'error' | 'expired';
/** What the worker is doing: gathering the records from the services, copying the original files, finishing the archive. */
export type DataExportPhase = 'waiting' | 'records' | 'files' | 'finishing' | 'done';

/**
 * One "Download your data" archive of a person: asked for in settings, built by the media worker
 * (`PersonalData.ExportJob`), stored under `data-exports/<id>/<fileName>` until `expiresAt`, when
 * the sweep deletes the file and the row becomes `expired` (kept for the once-a-day limit).
 */
@Entity({ name: 'data_exports' })
@Index('data_exports_user_idx', ['userId', 'createdAt'])
@Index('data_exports_expires_idx', ['expiresAt'])
export class DataExport {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @Column({ type: 'varchar', length: 12, default: 'queued' })
  status: DataExportStatus;

  @Column({ type: 'varchar', length: 12, default: 'waiting' })
  phase: DataExportPhase;

  /** Whole percent, 0–100, never backwards. */
  @Column({ type: 'integer', default: 0 })
  progress: number;

  /** Storage key of the finished ZIP; null until completed and after it expired. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  objectKey: string | null;

  /** The download name: `timeliner-data-<username or id>-<date>.zip`. */
  @Column({ type: 'varchar', length: 120 })
  fileName: string;

  /** Size of the ZIP in bytes, once completed. */
  @Column({ type: 'bigint', nullable: true })
  sizeBytes: string | null;

  /** Why the archive could not be made, as a sentence. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  /** When the download link stops working and the file is deleted: seven days after completion. */
  @Column({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null;
}
