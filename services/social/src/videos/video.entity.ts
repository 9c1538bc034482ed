import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A video as this service knows it: its timeline (from MediaEvents.UploadCompleted), whether it
 * is gone, and its like and comment counts with their version.
 */
@Entity({ name: 'videos' })
@Index('videos_timeline_idx', ['timelineId'])
export class VideoRecord {
  /** The media id. */
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  timelineId: string;

  @Column({ type: 'integer', default: 0 })
  likesCount: number;

  @Column({ type: 'integer', default: 0 })
  commentsCount: number;

  @Column({ type: 'bigint', default: 0 })
  countVersion: string;

  @Column({ type: 'boolean', default: false })
  deleted: boolean;
}

/** Who liked a video (spec 001, `video_likes`): unique per video and person. */
@Entity({ name: 'video_likes' })
@Index('video_likes_user_idx', ['userId', 'createdAt'])
export class VideoLike {
  @PrimaryColumn('uuid')
  videoId: string;

  @PrimaryColumn('uuid')
  userId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
