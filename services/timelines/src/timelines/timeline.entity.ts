import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export const VISIBILITIES = ['private', 'public', 'unlisted'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** `processing` is set by the system only (while media is prepared); people choose draft or published. */
export const TIMELINE_STATUSES = ['draft', 'processing', 'published'] as const;
export type TimelineStatus = (typeof TIMELINE_STATUSES)[number];

const bigintAsNumber = { to: (v: number) => v, from: (v: string | number) => Number(v) };

/**
 * A timeline: an ordered collection of videos and images with its settings, its counters and the
 * activity figures the feed orders by. Counters owned by other services (likes, videos, duration,
 * comments) arrive as events; views are recorded here.
 */
@Entity({ name: 'timelines' })
@Check('timelines_visibility_check', `"visibility" IN ('private', 'public', 'unlisted')`)
@Check('timelines_status_check', `"status" IN ('draft', 'processing', 'published')`)
@Check('timelines_is_public_check', `"is_public" = ("visibility" = 'public')`)
// The public feed: published public timelines in feed order (see activity.ts).
@Index('timelines_feed_idx', ['scoreBand', 'lastActivityAt', 'id'], { where: `"visibility" = 'public' AND "status" = 'published'` })
@Index('timelines_creator_id_idx', ['creatorId'])
export class Timeline {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 5000, nullable: true })
  description: string | null;

  /** The current owner (follows ownership transfers). */
  @Column({ type: 'uuid' })
  creatorId: string;

  @Column({ type: 'varchar', length: 100 })
  creatorName: string;

  /** Always `visibility = 'public'` (a check constraint keeps the two in step); kept for readers of the original schema. */
  @Column({ type: 'boolean', default: false })
  isPublic: boolean;

  @Column({ type: 'varchar', length: 16, default: 'private' })
  visibility: Visibility;

  /** Total seconds of its videos. */
  @Column({ type: 'integer', default: 0 })
  duration: number;

  @Column({ type: 'integer', default: 0 })
  videoCount: number;

  /** Processed images (timeline_images). */
  @Column({ type: 'integer', default: 0 })
  imageCount: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintAsNumber })
  views: number;

  @Column({ type: 'integer', default: 0 })
  likesCount: number;

  /** count_version of the social service's ReactionChanged that set likesCount: only a newer one applies. */
  @Column({ type: 'bigint', default: 0, transformer: bigintAsNumber })
  likesVersion: number;

  @Column({ type: 'integer', default: 0 })
  commentsCount: number;

  /** The social service's version of commentsCount (TimelineCommentAdded/Deleted's count_version): only a newer one applies. */
  @Column({ type: 'bigint', default: 0, transformer: bigintAsNumber })
  commentsVersion: number;

  /** The version of the team's last change (members_version_seq), as the collaborator events carry it. */
  @Column({ type: 'bigint', default: 0, transformer: bigintAsNumber })
  membersVersion: number;

  @Column({ type: 'varchar', length: 16, default: 'draft' })
  status: TimelineStatus;

  @Column({ type: 'boolean', default: false })
  isLive: boolean;

  @Column({ type: 'integer', default: 0 })
  liveViewers: number;

  @Column({ type: 'uuid', nullable: true })
  challengeId: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  categoryTag: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastContentAddedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastCommentAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastLikeAt: Date | null;

  /** The latest of creation, last content added, last comment and last like. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastActivityAt: Date;

  /** See activity.ts for the formula. */
  @Column({ type: 'double precision', default: 0 })
  activityScore: number;

  /** floor(activityScore × 10): the feed's first sort key, so it can be indexed and paged. */
  @Column({ type: 'integer', default: 0 })
  scoreBand: number;

  @Column({ type: 'double precision', default: 0 })
  engagementScore: number;

  @Column({ type: 'double precision', default: 0 })
  trendingScore: number;

  @Column({ type: 'varchar', length: 16, default: 'new' })
  contentFreshness: string;

  /**
   * Marked sensitive by its owner or by the moderators: viewers see a blurred cover with "Show"
   * unless they chose to always show sensitive media.
   */
  @Column({ type: 'boolean', default: false })
  sensitive: boolean;

  /**
   * The media service's order of the timeline's videos, as its last MediaReordered announced it;
   * null until the first reorder. Decides the cover (see snapshot.ts).
   */
  @Column({ type: 'uuid', array: true, nullable: true })
  videoOrder: string[] | null;

  /** Grows by one with every TimelineSnapshot (snapshot.ts): consumers keep the highest. */
  @Column({ type: 'bigint', default: 0, transformer: bigintAsNumber })
  revision: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
