import { Check, Column, CreateDateColumn, Entity, Index, ManyToOne, PrimaryColumn } from 'typeorm';
import { Timeline } from '../timelines/timeline.entity.js';

/** One recorded view of a timeline: what the analytics are computed from. */
@Entity({ name: 'timeline_views' })
@Index('timeline_views_timeline_id_created_at_idx', ['timelineId', 'createdAt'])
@Index('timeline_views_viewer_idx', ['timelineId', 'viewerKey', 'createdAt'])
export class TimelineView {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  timelineId: string;

  @ManyToOne(() => Timeline, { onDelete: 'CASCADE' })
  timeline?: Timeline;

  /**
   * Who viewed, without storing who: `u:<user id>` when signed in, else `a:` and an HMAC of the
   * IP address, user agent and UTC day (so an anonymous viewer is one viewer for a day at most).
   */
  @Column({ type: 'varchar', length: 80 })
  viewerKey: string;

  /** Seconds watched. */
  @Column({ type: 'double precision', default: 0 })
  watchTime: number;

  /** Share of the timeline watched, 0..1. */
  @Column({ type: 'double precision', default: 0 })
  completion: number;

  /** Continent-level region from the viewer's time zone (`Europe`), or null. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  region: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

export const ENGAGEMENT_KINDS = ['share', 'download'] as const;
export type EngagementKind = (typeof ENGAGEMENT_KINDS)[number];

/** A share or a download of a timeline. */
@Entity({ name: 'timeline_engagements' })
@Check('timeline_engagements_kind_check', `"kind" IN ('share', 'download')`)
@Index('timeline_engagements_timeline_id_idx', ['timelineId', 'kind', 'createdAt'])
export class TimelineEngagement {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  timelineId: string;

  @ManyToOne(() => Timeline, { onDelete: 'CASCADE' })
  timeline?: Timeline;

  @Column({ type: 'varchar', length: 16 })
  kind: EngagementKind;

  /** For shares: where to (`copy_link`, `twitter`, ...). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  channel: string | null;

  @Column({ type: 'varchar', length: 80 })
  viewerKey: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
