import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, Unique } from 'typeorm';

export const REPORTABLE = ['post', 'timeline', 'video', 'video_comment', 'post_comment', 'timeline_comment'] as const;
export type ReportableType = (typeof REPORTABLE)[number];

/** A person's report of something they saw (spec 001, `content_reports`), once per reporter and item. */
@Entity({ name: 'content_reports' })
@Unique('content_reports_once_per_reporter', ['reporterId', 'contentType', 'contentId'])
@Index('content_reports_status_idx', ['status', 'createdAt'])
@Check('content_reports_type_check', `"content_type" IN ('post', 'timeline', 'video', 'video_comment', 'post_comment', 'timeline_comment')`)
export class ContentReport {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  reporterId: string;

  @Column({ type: 'varchar', length: 20 })
  contentType: ReportableType;

  @Column('uuid')
  contentId: string;

  @Column({ type: 'varchar', length: 30 })
  reason: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 20, default: 'pending' })
  status: string;

  @Column({ type: 'uuid', nullable: true })
  moderatorId: string | null;

  @Column({ type: 'text', nullable: true })
  moderatorNotes: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
