import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Someone asked to follow a private account and the owner has not answered yet. A request is not
 * a follow: it changes no count and opens nothing; approving it makes the follow and deletes it,
 * declining or taking it back only deletes it.
 */
@Entity({ name: 'follow_requests' })
@Index('follow_requests_target_idx', ['targetId', 'createdAt', 'requesterId'])
export class FollowRequest {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'follow_requests_pkey' })
  requesterId: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'follow_requests_pkey' })
  targetId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** How many requests wait for a person, versioned (FollowRequestChanged.version) so a copy never goes back. */
@Entity({ name: 'follow_request_counts' })
export class FollowRequestCount {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'follow_request_counts_pkey' })
  userId: string;

  @Column({ type: 'integer', default: 0 })
  pendingCount: number;

  @Column({ type: 'bigint', default: 0 })
  version: string;
}
