import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * What the moderators of an item (a timeline's owner and editors, a post's author) chose for its
 * comments: who may comment, and which comments wait for their approval. An item without a row
 * has the defaults: everyone comments, nothing is held. A timeline's settings cover the comments
 * on its videos too.
 */
@Entity({ name: 'comment_settings' })
export class CommentSettings {
  /** 'timeline' or 'post'. */
  @PrimaryColumn({ type: 'varchar', length: 16 })
  targetType: string;

  @PrimaryColumn('uuid')
  targetId: string;

  /** 'everyone', 'followers' (of the timeline's owner or the post's author) or 'nobody'. */
  @Column({ type: 'varchar', length: 16, default: 'everyone' })
  whoMayComment: string;

  /** Every comment waits for approval. */
  @Column({ type: 'boolean', default: false })
  holdAll: boolean;

  /** A comment containing one of these words (lower-case) waits for approval. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  heldWords: string[];

  /** A comment from an account younger than this many days waits for approval; null: off. */
  @Column({ type: 'integer', nullable: true })
  holdNewAccountsDays: number | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
