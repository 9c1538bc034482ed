import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** What a media item of a timeline is: likes and comments are for videos; either may be reported. */
export type MediaKind = 'video' | 'image';

/**
 * A video or image as this service knows it: its timeline (from MediaEvents.UploadCompleted),
 * whether it is gone, and (videos only) its like and comment counts with their version. An image
 * is known so it can be reported and decided on; it has no likes or comments.
 */
@Entity({ name: 'videos' })
@Index('videos_timeline_idx', ['timelineId'])
@Check('videos_media_type_check', `"media_type" IN ('video', 'image')`)
export class VideoRecord {
  /** The media id. */
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  timelineId: string;

  @Column({ type: 'varchar', length: 10, default: 'video' })
  mediaType: MediaKind;

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
