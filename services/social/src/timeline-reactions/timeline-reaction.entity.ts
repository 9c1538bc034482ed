import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** Who liked a timeline: one row per person and timeline. */
@Entity({ name: 'timeline_likes' })
@Index('timeline_likes_user_idx', ['userId', 'createdAt'])
export class TimelineLike {
  @PrimaryColumn('uuid')
  timelineId: string;

  @PrimaryColumn('uuid')
  userId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** Who saved a timeline: one row per person and timeline. */
@Entity({ name: 'timeline_bookmarks' })
@Index('timeline_bookmarks_user_idx', ['userId', 'createdAt'])
export class TimelineBookmark {
  @PrimaryColumn('uuid')
  timelineId: string;

  @PrimaryColumn('uuid')
  userId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/**
 * How many likes and bookmarks a timeline has, changed in the transaction of each toggle under
 * this row's lock, with the version the ReactionChanged events carry.
 */
@Entity({ name: 'timeline_reactions' })
export class TimelineReactionCount {
  @PrimaryColumn('uuid')
  timelineId: string;

  @Column({ type: 'integer', default: 0 })
  likesCount: number;

  @Column({ type: 'integer', default: 0 })
  bookmarksCount: number;

  @Column({ type: 'bigint', default: 0 })
  countVersion: string;

  /** Comments shown on the timeline (held ones apart), recounted with each one added or deleted. */
  @Column({ type: 'integer', default: 0 })
  commentsCount: number;

  /** The version TimelineCommentAdded/Deleted carry for commentsCount (from count_version_seq). */
  @Column({ type: 'bigint', default: 0 })
  commentsVersion: string;
}
