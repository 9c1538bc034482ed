import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * What the feed shows of a timeline, kept from TimelinesEvents.TimelineSnapshot: the snapshot
 * with the highest revision wins, so a redelivered or late one changes nothing.
 */
@Entity({ name: 'feed_timelines' })
@Index('feed_timelines_creator_idx', ['creatorId', 'createdAt', 'id'])
@Index('feed_timelines_key_changed_idx', ['keyChangedAt'])
// Partial (public and published only), made by the migration.
@Index('feed_timelines_feed_idx', { synchronize: false })
@Index('feed_timelines_public_creator_idx', { synchronize: false })
export class FeedTimeline {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  creatorId: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  creatorName: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 5000, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 16 })
  visibility: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ type: 'integer', default: 0 })
  videoCount: number;

  /** Seconds. */
  @Column({ type: 'integer', default: 0 })
  duration: number;

  @Column({ type: 'bigint', default: 0 })
  views: string;

  @Column({ type: 'integer', default: 0 })
  likesCount: number;

  @Column({ type: 'integer', default: 0 })
  commentsCount: number;

  @Column({ type: 'double precision', default: 0 })
  activityScore: number;

  @Column({ type: 'integer', default: 0 })
  scoreBand: number;

  @Column({ type: 'timestamptz' })
  lastActivityAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'uuid', nullable: true })
  coverMediaId: string | null;

  /** The cover video's short description (the snapshot's cover_alt_text), for the card's cover; null when it has none. */
  @Column({ type: 'varchar', length: 1500, nullable: true })
  coverAltText: string | null;

  /** Marked sensitive (the snapshot's): its card shows a blurred cover with Show unless the viewer always shows sensitive media. */
  @Column({ type: 'boolean', default: false })
  sensitive: boolean;

  @Column({ type: 'bigint', default: 0 })
  revision: string;

  /** When (scoreBand, lastActivityAt) last changed: the feed's fixed order of a read (feed-keys.ts). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  keyChangedAt: Date;
}

/** Timelines deleted: a snapshot that arrives after the deletion must not bring one back. */
@Entity({ name: 'deleted_timelines' })
export class DeletedTimeline {
  @PrimaryColumn('uuid')
  id: string;

  @CreateDateColumn({ type: 'timestamptz' })
  deletedAt: Date;
}
