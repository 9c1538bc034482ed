import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Spec 001 section 3 (Activity): what a person did, as their profile's Activity tab lists it. */
export const ACTIVITY_TYPES = ['created_timeline', 'liked_timeline', 'commented_timeline', 'followed_user', 'shared_timeline', 'bookmarked_timeline'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
export type ActivityTargetType = 'timeline' | 'user';

/** What the Activity tab shows beside the type; kept as it was when recorded, read fresh when still known. */
export interface ActivityMetadata {
  timelineTitle?: string;
  followedUsername?: string;
}

/**
 * One thing a person did, recorded from the event that announced it (see activity-recorder.ts).
 * `source_event_id` is that event's id: unique, so an event applied twice records nothing twice.
 * Taking it back (unlike, unfollow, ...) deletes the row.
 */
@Entity({ name: 'activities' })
@Index('activities_user_created_idx', ['userId', 'createdAt', 'id'])
@Index('activities_target_user_idx', ['targetId', 'userId'])
@Index('activities_source_event_idx', ['sourceEventId'], { unique: true })
export class Activity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @Column({ type: 'varchar', length: 32 })
  activityType: ActivityType;

  @Column({ type: 'varchar', length: 16 })
  targetType: ActivityTargetType;

  @Column('uuid')
  targetId: string;

  /** The timeline a timeline activity is about (its target); null for a follow. */
  @Column({ type: 'uuid', nullable: true })
  timelineId: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: ActivityMetadata;

  @Column('uuid')
  sourceEventId: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
