import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A feed item's sort key that was replaced, and when (see feed-keys.ts). Kept for FEED_READ_HOURS. */
@Entity({ name: 'feed_key_history' })
@Index('feed_key_history_item_idx', ['itemType', 'itemId', 'replacedAt'])
@Index('feed_key_history_replaced_idx', ['replacedAt'])
export class FeedKeyHistory {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_feed_key_history' })
  seq: string;

  @Column({ type: 'varchar', length: 16 })
  itemType: string;

  @Column('uuid')
  itemId: string;

  @Column({ type: 'integer' })
  scoreBand: number;

  @Column({ type: 'timestamptz' })
  lastActivityAt: Date;

  @Column({ type: 'timestamptz' })
  replacedAt: Date;
}
