import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A person's named list of timelines (spec 001, `collections`). Public ones are readable by
 * everyone, private ones by their owner only; only the owner changes one. timelinesCount moves
 * with each add and remove, in its transaction, under this row's lock.
 */
@Entity({ name: 'collections' })
@Index('collections_user_created_idx', ['userId', 'createdAt', 'id'])
export class Collection {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: true })
  isPublic: boolean;

  @Column({ type: 'integer', default: 0 })
  timelinesCount: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** A timeline in a collection, at its place (spec 001, `collection_timelines`). */
@Entity({ name: 'collection_timelines' })
@Index('collection_timelines_position_idx', ['collectionId', 'position'])
@Index('collection_timelines_timeline_idx', ['timelineId'])
export class CollectionTimeline {
  @PrimaryColumn('uuid')
  collectionId: string;

  @PrimaryColumn('uuid')
  timelineId: string;

  /** Order within the collection, ascending; gaps are allowed (a removal leaves one). */
  @Column({ type: 'integer' })
  position: number;

  @CreateDateColumn({ type: 'timestamptz' })
  addedAt: Date;
}
