import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export interface UploadedPart {
  partNumber: number;
  etag: string;
  size: number;
}

/**
 * A resumable (tus) upload in progress (spec 001 `upload_sessions`). Its state lives here, not in
 * a process, so any replica continues it; the bytes go straight into a multipart upload of the
 * object store, one part per completed chunk.
 */
@Entity({ name: 'upload_sessions' })
@Index('upload_sessions_expires_idx', ['expiresAt'])
@Index('upload_sessions_user_status_idx', ['userId', 'status'])
export class UploadSession {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @Column('uuid')
  timelineId: string;

  /** The media row this upload becomes. */
  @Column('uuid')
  mediaId: string;

  /** Object key the completed upload is stored under. */
  @Column({ type: 'varchar', length: 300 })
  filename: string;

  @Column({ type: 'varchar', length: 255 })
  originalName: string;

  @Column({ type: 'varchar', length: 100 })
  mimeType: string;

  @Column({ type: 'bigint', transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  totalSize: number;

  /** Bytes durably stored (the tus Upload-Offset). */
  @Column({ type: 'bigint', default: 0, transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  receivedBytes: number;

  @Column({ type: 'integer', default: 0 })
  totalChunks: number;

  @Column({ type: 'integer', default: 0 })
  receivedChunks: number;

  /** active | completed | cancelled | expired */
  @Column({ type: 'varchar', length: 12, default: 'active' })
  status: string;

  /** Multipart upload id in the object store. */
  @Column({ type: 'varchar', length: 1024, nullable: true })
  multipartId: string | null;

  @Column({ type: 'jsonb', default: [] })
  chunks: UploadedPart[];

  /**
   * Bytes after the last complete part that are stored but not yet a part (S3 parts must be at
   * least 5 MiB): an object under `uploads/<id>/tail/`, prepended to the next PATCH's data.
   */
  @Column({ type: 'varchar', length: 300, nullable: true })
  tailKey: string | null;

  @Column({ type: 'integer', default: 0 })
  tailSize: number;

  /** tus Upload-Metadata as received (filename, filetype, timelineId). */
  @Column({ type: 'jsonb', default: {} })
  metadata: Record<string, string>;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
