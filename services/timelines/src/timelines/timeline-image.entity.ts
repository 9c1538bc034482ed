import { CreateDateColumn, Entity, Index, PrimaryColumn, Column } from 'typeorm';

/**
 * The processed images a timeline counts, as the media service announced them
 * (`MediaEvents.ImageProcessed`, `MediaDeleted`). `image_count` is recomputed from these rows, so
 * an event delivered twice or a deletion of an image never counted leaves it right.
 */
@Entity({ name: 'timeline_images' })
@Index('timeline_images_timeline_idx', ['timelineId'])
export class TimelineImage {
  @PrimaryColumn('uuid')
  mediaId: string;

  @Column('uuid')
  timelineId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  addedAt: Date;
}
