import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** What a like is on: the kinds that count towards a person's `totalLikes`. */
export type LikeTargetType = 'post' | 'timeline';

/**
 * The like count of one post or timeline, as the social service last told it (ReactionChanged),
 * and whose it is. `users.total_likes` is the sum of `likes` over a person's rows that are not
 * deleted, kept in the same transaction as any change of a row (counts/content-count-events.ts).
 */
@Entity({ name: 'like_targets' })
@Index('like_targets_owner_id_idx', ['ownerId'])
export class LikeTarget {
  @PrimaryColumn({ type: 'varchar', length: 10 })
  targetType: LikeTargetType;

  @PrimaryColumn('uuid')
  targetId: string;

  /** The post's author or the timeline's creator; null while nobody has said. */
  @Column({ type: 'uuid', nullable: true })
  ownerId: string | null;

  @Column({ type: 'integer', default: 0 })
  likes: number;

  /** count_version of the ReactionChanged that set `likes`: only a newer one applies. */
  @Column({ type: 'bigint', default: 0 })
  version: string;

  /** The post or timeline is gone: its likes left its owner's total and nothing brings them back. */
  @Column({ type: 'boolean', default: false })
  deleted: boolean;
}
