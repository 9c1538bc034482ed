import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A comment on a video, or a reply to one (`parent_id`), spec 001 `video_comments`. */
@Entity({ name: 'video_comments' })
@Index('video_comments_held_idx', ['timelineId', 'createdAt'], { where: 'held' })
@Index('video_comments_pinned_idx', ['videoId'], { unique: true, where: '"pinned_at" IS NOT NULL' })
@Index('video_comments_thread_idx', ['videoId', 'parentId', 'createdAt', 'id'])
@Index('video_comments_parent_idx', ['parentId'])
@Index('video_comments_user_idx', ['userId'])
export class VideoComment {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  videoId: string;

  @Column('uuid')
  timelineId: string;

  @Column('uuid')
  userId: string;

  /** The author's name when written, kept current from auth events; empty until the author is known here. */
  @Column({ type: 'varchar', length: 100, default: '' })
  userName: string;

  @Column({ type: 'varchar', length: 2000 })
  content: string;

  /** The top-level comment this replies to; null for a top-level comment. */
  @Column({ type: 'uuid', nullable: true })
  parentId: string | null;

  @Column({ type: 'integer', default: 0 })
  repliesCount: number;

  @Column({ type: 'integer', default: 0 })
  likesCount: number;

  /** Waiting for the item's moderators to approve it: seen only by its author and them, not counted. */
  @Column({ type: 'boolean', default: false })
  held: boolean;

  /** When a moderator of the item pinned it (one per item, shown first); null when not pinned. */
  @Column({ type: 'timestamptz', nullable: true })
  pinnedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
