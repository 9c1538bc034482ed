import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The processed videos a timeline counts, as the media service announced them
 * (`MediaEvents.VideoProcessed`, `MediaDeleted`). `video_count` and `duration` of a timeline are
 * recomputed from these rows, so an event delivered twice, a video announced again when more
 * renditions are ready, or a deletion of a video that was never counted all leave them right.
 */
@Entity({ name: 'timeline_videos' })
@Index('timeline_videos_timeline_idx', ['timelineId'])
export class TimelineVideo {
  @PrimaryColumn('uuid')
  mediaId: string;

  @Column('uuid')
  timelineId: string;

  /** Seconds, fractional. */
  @Column({ type: 'double precision', default: 0 })
  duration: number;

  /** When it was first counted: orders videos the media service's order leaves level (snapshot.ts). */
  @CreateDateColumn({ type: 'timestamptz' })
  addedAt: Date;
}
