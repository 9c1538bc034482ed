import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A short text post (spec 000, `posts`). Its counters live on the row and change in the
 * transaction that adds or removes a like, bookmark or comment, under the row's lock, with a
 * version for the events that carry them. Activity score and band order it in the feed with
 * timelines (the same formula, @timeliner/platform's activityScore).
 */
@Entity({ name: 'posts' })
@Index('posts_feed_idx', ['scoreBand', 'lastActivityAt', 'id'])
@Index('posts_user_created_idx', ['userId', 'createdAt', 'id'])
@Index('posts_created_idx', ['createdAt', 'id'])
@Index('posts_key_changed_idx', ['keyChangedAt'])
export class Post {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @Column({ type: 'varchar', length: 5000 })
  content: string;

  /** Marked sensitive by its author (the moderators' mark is in moderated_content). */
  @Column({ type: 'boolean', default: false })
  sensitive: boolean;

  /** Lower-case tags without '#', in order of first use. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  hashtags: string[];

  /** Lower-case usernames without '@', in order of first use. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  mentions: string[];

  @Column({ type: 'integer', default: 0 })
  likesCount: number;

  @Column({ type: 'integer', default: 0 })
  commentsCount: number;

  @Column({ type: 'integer', default: 0 })
  bookmarksCount: number;

  /** Grows with every change of a counter (count_version_seq). */
  @Column({ type: 'bigint', default: 0 })
  countVersion: string;

  @Column({ type: 'double precision', default: 0 })
  activityScore: number;

  /** floor(activityScore × 10): the feed's first sort key. */
  @Column({ type: 'integer', default: 0 })
  scoreBand: number;

  /** The latest of creation, last comment and last like. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastActivityAt: Date;

  /** When (band, lastActivityAt) last changed: the feed's fixed order of a read (feed-keys.ts). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  keyChangedAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** Who liked a post: one row per person and post. */
@Entity({ name: 'post_likes' })
@Index('post_likes_user_idx', ['userId', 'createdAt'])
export class PostLike {
  @PrimaryColumn('uuid')
  postId: string;

  @PrimaryColumn('uuid')
  userId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** Who saved a post: one row per person and post. */
@Entity({ name: 'post_bookmarks' })
@Index('post_bookmarks_user_idx', ['userId', 'createdAt'])
export class PostBookmark {
  @PrimaryColumn('uuid')
  postId: string;

  @PrimaryColumn('uuid')
  userId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
