import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Media } from '../media/media.entity.js';

/** A video's caption track in one language: the sanitised WebVTT made from the uploaded file. */
@Entity({ name: 'video_captions' })
export class VideoCaption {
  @PrimaryColumn('uuid', { name: 'media_id' })
  mediaId: string;

  /** Deleting the video deletes its captions. */
  @ManyToOne(() => Media, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'media_id', foreignKeyConstraintName: 'video_captions_media_fkey' })
  media?: Media;

  /** BCP 47, canonical case (`en`, `pt-BR`). */
  @PrimaryColumn({ type: 'varchar', length: 35 })
  language: string;

  @Column('uuid', { name: 'timeline_id' })
  timelineId: string;

  /** What was uploaded: `vtt` or `srt` (converted). */
  @Column({ name: 'source_format', type: 'varchar', length: 8 })
  sourceFormat: string;

  @Column({ type: 'text' })
  vtt: string;

  @Column({ name: 'cue_count', type: 'integer' })
  cueCount: number;

  /** From the `video_caption_revision` sequence: a later change always has a higher one. */
  @Column({ type: 'bigint', transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  revision: number;

  @Column('uuid', { name: 'uploaded_by' })
  uploadedBy: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
