import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One entry of a person's notifications: every activity of one kind on one target within the
 * grouping window (`GROUP_WINDOW_MS`), e.g. all the likes of a timeline in 12 hours.
 */
@Entity({ name: 'notifications' })
@Index('notifications_recipient_updated_idx', ['recipientId', 'updatedAt', 'id'])
@Index('notifications_recipient_group_idx', ['recipientId', 'groupKey', 'createdAt'])
@Index('notifications_timeline_idx', ['timelineId'])
@Index('notifications_target_idx', ['targetId'])
@Index('notifications_owner_idx', ['ownerId', 'recipientId'])
// The bell's count reads unread entries only.
@Index('notifications_unread_idx', ['recipientId'], { where: '"read_at" IS NULL' })
export class Notification {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  recipientId: string;

  @Column({ type: 'varchar', length: 30 })
  kind: string;

  /** `<kind>:<targetType>:<targetId>`: activities with the same key group together. */
  @Column({ type: 'varchar', length: 100 })
  groupKey: string;

  @Column({ type: 'varchar', length: 20 })
  targetType: string;

  @Column('uuid')
  targetId: string;

  /** The timeline the target belongs to, when it does: its visibility decides who may be told. */
  @Column({ type: 'uuid', nullable: true })
  timelineId: string | null;

  /**
   * Whose content it is about (the post's author, the timeline's owner), when known: its privacy
   * and suspension decide who may keep it. Null for what is about no one's content.
   */
  @Column({ type: 'uuid', nullable: true })
  ownerId: string | null;

  /** The timeline's or file's name as it was when the activity happened. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  targetTitle: string | null;

  @Column({ type: 'varchar', length: 300 })
  link: string;

  /** Distinct people who acted (kept equal to the distinct actors of its activities). */
  @Column({ type: 'integer', default: 0 })
  count: number;

  @Column({ type: 'timestamptz', nullable: true })
  readAt: Date | null;

  /** When the first activity happened: the grouping window starts here. */
  @Column({ type: 'timestamptz' })
  createdAt: Date;

  /** When the latest activity happened: the list's order. */
  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}

/**
 * One activity behind a notification: a like, a comment, a follow. `sourceKey` names what caused
 * it (`like:timeline:<id>:<person>`, `comment:<id>`), unique per recipient, so a replayed event
 * adds nothing and an undo finds what to take back.
 */
@Entity({ name: 'notification_activities' })
@Index('notification_activities_source_idx', ['recipientId', 'sourceKey'], { unique: true })
@Index('notification_activities_notification_idx', ['notificationId', 'occurredAt'])
export class NotificationActivity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  notificationId: string;

  @Column('uuid')
  recipientId: string;

  @Column({ type: 'varchar', length: 120 })
  sourceKey: string;

  /** Null for system activities (a video finished processing). */
  @Column({ type: 'uuid', nullable: true })
  actorId: string | null;

  @Column({ type: 'timestamptz' })
  occurredAt: Date;
}
