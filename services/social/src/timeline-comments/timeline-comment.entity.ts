import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A comment on a whole timeline (spec 001, `comments`). The timeline itself belongs to the
 * timelines service: `timeline_id` is a reference by id only, checked through
 * `TimelinesRpc.CheckAccess` on every request.
 */
@Entity({ name: 'timeline_comments' })
// Newest first per timeline, with the id as tie-break for keyset pages.
// The approval queue and the pinned comment of a timeline.
@Index('timeline_comments_held_idx', ['timelineId', 'createdAt'], { where: 'held' })
@Index('timeline_comments_pinned_idx', ['timelineId'], { unique: true, where: '"pinned_at" IS NOT NULL' })
@Index('timeline_comments_timeline_created_idx', ['timelineId', 'createdAt', 'id'])
export class TimelineComment {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  timelineId: string;

  @Index('timeline_comments_user_idx')
  @Column({ type: 'uuid' })
  userId: string;

  /** The author's name when written, kept current from auth events; empty until the author is known here. */
  @Column({ type: 'varchar', length: 100, default: '' })
  userName: string;

  @Column({ type: 'varchar', length: 2000 })
  content: string;

  /** Seconds into the timeline the comment refers to. */
  @Column({ type: 'integer', default: 0 })
  timestamp: number;

  /** Waiting for the item's moderators to approve it: seen only by its author and them, not counted. */
  @Column({ type: 'boolean', default: false })
  held: boolean;

  /** When a moderator of the item pinned it (one per item, shown first); null when not pinned. */
  @Column({ type: 'timestamptz', nullable: true })
  pinnedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
