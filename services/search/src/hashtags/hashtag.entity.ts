import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A hashtag in use: by how many listed timelines and posts (spec 001: Hashtag name, usageCount). */
@Entity({ name: 'hashtags' })
// Trigram and prefix indexes, made by the migration.
@Index('hashtags_trgm_idx', { synchronize: false })
@Index('hashtags_prefix_idx', { synchronize: false })
// The most used first (read backwards): they fill the trending list.
@Index('hashtags_usage_idx', ['usageCount', 'name'])
export class Hashtag {
  @PrimaryColumn({ type: 'varchar', length: 50 })
  name: string;

  @Column({ type: 'integer', default: 0 })
  usageCount: number;
}

/**
 * One use of a hashtag by a listed timeline or a post, with who used it and when it was first
 * used there: the counts and the trend are read from these. A use goes when its timeline stops
 * being listed, when its post drops the tag, and when either is deleted.
 */
@Entity({ name: 'hashtag_uses' })
@Index('hashtag_uses_hashtag_idx', ['hashtag', 'usedAt'])
@Index('hashtag_uses_used_at_idx', ['usedAt'])
export class HashtagUse {
  @PrimaryColumn({ type: 'varchar', length: 16 })
  sourceType: 'timeline' | 'post';

  @PrimaryColumn('uuid')
  sourceId: string;

  @PrimaryColumn({ type: 'varchar', length: 50 })
  hashtag: string;

  @Column('uuid')
  userId: string;

  @Column({ type: 'timestamptz' })
  usedAt: Date;
}

/**
 * Posts' hashtags as last heard (PostCreated, PostUpdated) and whether the post is gone
 * (PostDeleted), so a late or redelivered event never brings a deleted post's tags back.
 */
@Entity({ name: 'tagged_posts' })
export class TaggedPost {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @Column({ type: 'varchar', length: 50, array: true, default: '{}' })
  hashtags: string[];

  /** Time of the event that set `hashtags`: an older one changes nothing. */
  @Column({ type: 'timestamptz' })
  changedAt: Date;

  @Column({ type: 'boolean', default: false })
  deleted: boolean;
}
