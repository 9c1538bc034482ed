import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type TimelineVisibility = 'private' | 'unlisted' | 'public';

/**
 * A timeline as far as notifications need it, kept from the timelines service's events: who owns
 * it (told about comments on it), its title (shown in the text), and its visibility (who may
 * still be told about it).
 */
@Entity({ name: 'timelines' })
export class TimelineRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  ownerId: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  title: string;

  @Column({ type: 'varchar', length: 10, default: 'private' })
  visibility: TimelineVisibility;

  /** Revision of the newest TimelineSnapshot applied. */
  @Column({ type: 'bigint', default: 0 })
  revision: string;
}

/** A collaborator of a timeline (the owner is TimelineRecord.ownerId). */
@Entity({ name: 'timeline_members' })
@Index('timeline_members_user_idx', ['userId'])
export class TimelineMember {
  @PrimaryColumn('uuid')
  timelineId: string;

  @PrimaryColumn('uuid')
  userId: string;

  /** The timelines service's members_version of the change that made them a member (0 before versions). */
  @Column({ type: 'bigint', default: 0 })
  version: string;
}

/** A member removed, with the version of the removal: an older addition arriving late does not bring them back. */
@Entity({ name: 'timeline_member_removals' })
export class TimelineMemberRemoval {
  @PrimaryColumn('uuid')
  timelineId: string;

  @PrimaryColumn('uuid')
  userId: string;

  @Column({ type: 'bigint', default: 0 })
  version: string;
}
