import { Column, Entity, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Timeline } from '../timelines/timeline.entity.js';

/**
 * Where one person stopped watching one timeline: the item (a video or image of the media
 * service) and the second in it. One row per person and timeline, overwritten as they watch; gone
 * when they finish the timeline or the timeline is deleted.
 */
@Entity({ name: 'watch_positions' })
export class WatchPosition {
  @PrimaryColumn('uuid')
  userId: string;

  @PrimaryColumn('uuid')
  timelineId: string;

  @ManyToOne(() => Timeline, { onDelete: 'CASCADE' })
  timeline?: Timeline;

  /** The media service's id of the item; the player ignores one no longer in the timeline. */
  @Column('uuid')
  itemId: string;

  /** Seconds into the item. */
  @Column({ type: 'double precision' })
  seconds: number;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
