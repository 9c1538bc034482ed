import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * What a profile counts of one timeline, from the timelines service's TimelineSnapshot events:
 * its creator, views and whether anyone may see it. A person's `timelines_count`,
 * `public_timelines_count` and `total_views` are sums over their rows, kept in the same
 * transaction as any change of a row (counts/content-count-events.ts).
 */
@Entity({ name: 'profile_timelines' })
@Index('profile_timelines_creator_id_idx', ['creatorId'])
export class ProfileTimeline {
  @PrimaryColumn('uuid')
  timelineId: string;

  /** Null until a snapshot has said. */
  @Column({ type: 'uuid', nullable: true })
  creatorId: string | null;

  @Column({ type: 'bigint', default: 0 })
  views: string;

  /** Public and published: counted for everyone, not only for its creator. */
  @Column({ type: 'boolean', default: false })
  isPublic: boolean;

  /** Revision of the snapshot stored here; 0 = no snapshot yet (the row only holds a lock). */
  @Column({ type: 'bigint', default: 0 })
  revision: string;

  /** TimelineDeleted arrived: the timeline no longer counts and later snapshots are ignored. */
  @Column({ type: 'boolean', default: false })
  deleted: boolean;
}
