import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type ExportStatus = 'queued' | 'processing' | 'completed' | 'error';

/**
 * One export of a timeline's videos as a single MP4: asked for by a signed-in viewer, made by the
 * worker (`MediaJobs.Export`), stored under `exports/<id>/<fileName>`.
 */
@Entity({ name: 'exports' })
@Index('exports_timeline_idx', ['timelineId'])
@Index('exports_requester_idx', ['requestedBy', 'createdAt'])
@Index('exports_created_idx', ['createdAt'])
export class Export {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  timelineId: string;

  @Column('uuid')
  requestedBy: string;

  @Column({ type: 'varchar', length: 12, default: 'queued' })
  status: ExportStatus;

  /** Storage key of the finished MP4; null until completed. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  objectKey: string | null;

  /** The download name: the title with every non-alphanumeric character as `_`, plus `.mp4`. */
  @Column({ type: 'varchar', length: 210 })
  fileName: string;

  /** SHA-256 of the output height and the videos in order: equal keys make the same file. */
  @Column({ type: 'varchar', length: 64, default: '' })
  contentKey: string;

  /** Largest output height (`options.quality`): 720 or 1080. */
  @Column({ type: 'integer', default: 1080 })
  maxHeight: number;

  /** Why the export failed, as a sentence. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
