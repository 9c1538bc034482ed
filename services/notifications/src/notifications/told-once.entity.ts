import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * When a person was last told that someone did something to the same thing of theirs, for the
 * kinds told once a day (TOLD_ONCE_A_DAY): a follow/unfollow or like/unlike storm by one person
 * tells its target once per 24 hours, in the list and by push, whichever replica handles it.
 */
@Entity({ name: 'told_once_a_day' })
export class ToldOnce {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_told_once_a_day' })
  recipientId: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_told_once_a_day' })
  actorId: string;

  /** `<kind>:<targetType>:<targetId>` (the entry's group key). */
  @PrimaryColumn({ type: 'varchar', length: 100, primaryKeyConstraintName: 'PK_told_once_a_day' })
  subject: string;

  @Column({ type: 'timestamptz' })
  toldAt: Date;
}
