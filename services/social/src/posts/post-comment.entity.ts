import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A comment on a post (spec 000, `post_comments`). */
@Entity({ name: 'post_comments' })
@Index('post_comments_held_idx', ['postId', 'createdAt'], { where: 'held' })
@Index('post_comments_pinned_idx', ['postId'], { unique: true, where: '"pinned_at" IS NOT NULL' })
@Index('post_comments_post_created_idx', ['postId', 'createdAt', 'id'])
@Index('post_comments_user_idx', ['userId'])
export class PostComment {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  postId: string;

  @Column('uuid')
  userId: string;

  /** The author's name when written, kept current from auth events; empty until the author is known here. */
  @Column({ type: 'varchar', length: 100, default: '' })
  userName: string;

  @Column({ type: 'varchar', length: 2000 })
  content: string;

  /** Waiting for the item's moderators to approve it: seen only by its author and them, not counted. */
  @Column({ type: 'boolean', default: false })
  held: boolean;

  /** When a moderator of the item pinned it (one per item, shown first); null when not pinned. */
  @Column({ type: 'timestamptz', nullable: true })
  pinnedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
