import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A comment on a whole timeline (spec 001, `comments`). The timeline itself belongs to the
 * timelines service: `timeline_id` is a reference by id only, checked through
 * `TimelinesRpc.CheckAccess` on every request.
 */
@Entity({ name: 'timeline_comments' })
// Newest first per timeline, with the id as tie-break for keyset pages.
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

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
