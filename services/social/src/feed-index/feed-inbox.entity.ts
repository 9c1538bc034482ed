import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One item of one person's following tab (see following-inbox.ts). */
@Entity({ name: 'feed_inbox' })
@Index('feed_inbox_page_idx', ['ownerId', 'at', 'itemId'])
@Index('feed_inbox_author_idx', ['authorId', 'ownerId'])
@Index('feed_inbox_item_idx', ['itemId'])
export class FeedInboxEntry {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_feed_inbox' })
  ownerId: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_feed_inbox' })
  itemId: string;

  @Column({ type: 'varchar', length: 16 })
  itemType: string;

  @Column('uuid')
  authorId: string;

  /** The item's creation time: the tab's order. */
  @Column({ type: 'timestamptz' })
  at: Date;
}
