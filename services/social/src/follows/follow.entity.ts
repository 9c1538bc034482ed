import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** Someone follows someone (spec 001, `follows`). */
@Entity({ name: 'follows' })
@Index('follows_following_idx', ['followingId', 'createdAt', 'followerId'])
@Index('follows_follower_created_idx', ['followerId', 'createdAt', 'followingId'])
export class Follow {
  @PrimaryColumn('uuid')
  followerId: string;

  @PrimaryColumn('uuid')
  followingId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/**
 * A person's follower and following counts, changed with each follow or unfollow under this row's
 * lock; the versions travel in FollowChanged so the profile's copy never goes back.
 */
@Entity({ name: 'follow_counts' })
export class FollowCount {
  @PrimaryColumn('uuid')
  userId: string;

  @Column({ type: 'integer', default: 0 })
  followersCount: number;

  @Column({ type: 'integer', default: 0 })
  followingCount: number;

  @Column({ type: 'bigint', default: 0 })
  followersVersion: string;

  @Column({ type: 'bigint', default: 0 })
  followingVersion: string;
}
