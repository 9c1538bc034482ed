import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The newest like state seen per person and target, by the target's count version: a like and
 * its undo delivered out of order, or replayed, never leave a stale notification.
 */
@Entity({ name: 'reaction_states' })
export class ReactionState {
  /** `<targetType>:<targetId>`. */
  @PrimaryColumn({ type: 'varchar', length: 60 })
  targetKey: string;

  @PrimaryColumn('uuid')
  userId: string;

  @Column({ type: 'bigint' })
  version: string;

  @Column('boolean')
  active: boolean;
}
