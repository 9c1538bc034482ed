import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A video's caption track in one language as media's events last described it (the highest
 * revision applied; a removed track or a deleted video stays as a tombstone, so a late event
 * cannot bring its words back).
 */
@Entity({ name: 'caption_tracks' })
@Index('caption_tracks_timeline_idx', ['timelineId'])
export class CaptionTrack {
  @PrimaryColumn('uuid', { name: 'media_id' })
  mediaId: string;

  @PrimaryColumn({ type: 'varchar', length: 35 })
  language: string;

  @Column('uuid', { name: 'timeline_id' })
  timelineId: string;

  @Column({ type: 'bigint' })
  revision: string;

  @Column({ type: 'boolean', default: false })
  removed: boolean;
}

/**
 * One cue's words and time: what a search for words spoken in a video finds. Only cues of listed
 * timelines are ever answered (the query joins `timelines` on `listed`).
 */
@Entity({ name: 'caption_cues' })
@Index('caption_cues_timeline_idx', ['timelineId'])
// GIN on the document, made by the migration.
@Index('caption_cues_document_idx', { synchronize: false })
export class CaptionCue {
  @PrimaryColumn('uuid', { name: 'media_id' })
  mediaId: string;

  @PrimaryColumn({ type: 'varchar', length: 35 })
  language: string;

  @PrimaryColumn({ type: 'integer' })
  position: number;

  @Column('uuid', { name: 'timeline_id' })
  timelineId: string;

  @Column({ name: 'start_ms', type: 'integer' })
  startMs: number;

  @Column({ name: 'end_ms', type: 'integer' })
  endMs: number;

  @Column({ type: 'varchar', length: 1000 })
  text: string;

  @Column({ type: 'tsvector', select: false })
  document: string;
}
