import { Check, Column, Entity, Index, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { Timeline } from '../timelines/timeline.entity.js';

export const COLLABORATOR_ROLES = ['owner', 'editor', 'viewer'] as const;
export type CollaboratorRole = (typeof COLLABORATOR_ROLES)[number];

/** A person with a role on a timeline. The owner has a row too, with role `owner`. */
@Entity({ name: 'collaborators' })
@Unique('collaborators_timeline_id_user_id_key', ['timelineId', 'userId'])
@Check('collaborators_role_check', `"role" IN ('owner', 'editor', 'viewer')`)
@Index('collaborators_user_id_idx', ['userId'])
export class Collaborator {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  timelineId: string;

  @ManyToOne(() => Timeline, { onDelete: 'CASCADE' })
  timeline?: Timeline;

  @Column({ type: 'uuid' })
  userId: string;

  /** Display name at the time, refreshed when the user renames themselves. */
  @Column({ type: 'varchar', length: 100 })
  userName: string;

  @Column({ type: 'varchar', length: 16, default: 'editor' })
  role: CollaboratorRole;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: string;

  /** The invitation the person joined through, if any. */
  @Column({ type: 'uuid', nullable: true })
  invitationId: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  joinedAt: Date;
}
