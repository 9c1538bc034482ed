import { Check, Column, CreateDateColumn, Entity, Index, ManyToOne, PrimaryColumn } from 'typeorm';
import { Timeline } from '../timelines/timeline.entity.js';

export const INVITATION_ROLES = ['viewer', 'editor'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];
export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'cancelled', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** An e-mailed invitation for an address that has no account yet. */
@Entity({ name: 'invitations' })
@Check('invitations_role_check', `"role" IN ('viewer', 'editor')`)
@Check('invitations_status_check', `"status" IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')`)
// One open invitation per address and timeline: inviting again refreshes it.
@Index('invitations_pending_email_key', ['timelineId', 'email'], { unique: true, where: `"status" = 'pending'` })
@Index('invitations_timeline_id_idx', ['timelineId', 'status'])
export class Invitation {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  timelineId: string;

  @ManyToOne(() => Timeline, { onDelete: 'CASCADE' })
  timeline?: Timeline;

  @Column({ type: 'uuid' })
  inviterUserId: string;

  @Column({ type: 'varchar', length: 100 })
  inviterName: string;

  /** Trimmed and lower-cased. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 16, default: 'editor' })
  role: InvitationRole;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: InvitationStatus;

  /**
   * SHA-256 hex of the invitation token. The token itself (256 random bits) exists only in the
   * e-mailed link, so a copy of the database cannot be used to accept invitations.
   */
  @Index('invitations_invite_token_hash_key', { unique: true })
  @Column({ type: 'char', length: 64 })
  inviteTokenHash: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  message: string | null;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  acceptedAt: Date | null;

  @Column({ type: 'uuid', nullable: true })
  acceptedByUserId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
