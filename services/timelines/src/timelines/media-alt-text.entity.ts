import { Column, Entity, Index, ManyToOne, PrimaryColumn } from 'typeorm';
import { Timeline } from './timeline.entity.js';

/**
 * The short description of each video of the timelines, as the media service announced it
 * (`MediaEvents.MediaAltTextChanged`), kept whether or not the video is processed yet, so the
 * cover's description goes with the snapshot (`cover_alt_text`) once it is the cover. The highest
 * `version` wins; `MediaDeleted` drops the row, and the timeline's deletion all of its rows.
 */
@Entity({ name: 'media_alt_texts' })
@Index('media_alt_texts_timeline_idx', ['timelineId'])
export class MediaAltText {
  @PrimaryColumn('uuid')
  mediaId: string;

  @Column('uuid')
  timelineId: string;

  @ManyToOne(() => Timeline, { onDelete: 'CASCADE' })
  timeline?: Timeline;

  @Column({ type: 'varchar', length: 1500 })
  altText: string;

  @Column({ type: 'bigint', default: 0 })
  version: string;
}
