import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export const STAFF_ROLES = ['moderator', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * Who may use the moderation desk. Granted and revoked only by the operator's command
 * (`npm run admin -- grant <username> moderator`), never through the API.
 */
@Entity({ name: 'staff_roles' })
@Check('staff_roles_role_check', `"role" IN ('moderator', 'admin')`)
export class StaffRoleRecord {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'staff_roles_pkey' })
  userId: string;

  @Column({ type: 'varchar', length: 20 })
  role: StaffRole;

  @CreateDateColumn({ type: 'timestamptz' })
  grantedAt: Date;
}

/**
 * The audit log: every decision of the desk and every role change, in the order made. Append-only:
 * a trigger refuses UPDATE and DELETE (migration 1766800000000).
 */
@Entity({ name: 'moderation_actions' })
@Index('moderation_actions_created_idx', ['createdAt', 'id'])
@Index('moderation_actions_content_idx', ['contentType', 'contentId', 'createdAt'])
@Index('moderation_actions_subject_idx', ['subjectUserId', 'createdAt'])
export class ModerationAction {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'moderation_actions_pkey' })
  id: string;

  /** The moderator; null for the operator's command. */
  @Column({ type: 'uuid', nullable: true })
  moderatorId: string | null;

  /** dismiss, hide, restore, sensitive, warn, suspend, lift, grant, revoke, appeal. */
  @Column({ type: 'varchar', length: 20 })
  action: string;

  @Column({ type: 'varchar', length: 20, nullable: true })
  contentType: string | null;

  @Column({ type: 'uuid', nullable: true })
  contentId: string | null;

  /** Whose content or account the decision is about. */
  @Column({ type: 'uuid', nullable: true })
  subjectUserId: string | null;

  @Column({ type: 'varchar', length: 1000 })
  reason: string;

  /** A suspension's end; null with action 'suspend' means for good. */
  @Column({ type: 'timestamptz', nullable: true })
  until: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** The moderators' standing decision on an item: hidden, marked sensitive. */
@Entity({ name: 'moderated_content' })
export class ModeratedContent {
  @PrimaryColumn({ type: 'varchar', length: 20, primaryKeyConstraintName: 'moderated_content_pkey' })
  contentType: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'moderated_content_pkey' })
  contentId: string;

  @Column('uuid')
  authorId: string;

  @Column({ type: 'boolean', default: false })
  hidden: boolean;

  @Column({ type: 'boolean', default: false })
  sensitive: boolean;

  /** The decision that set it. */
  @Column('uuid')
  actionId: string;

  /** Grows with every decision (moderation_version_seq): the events' order. */
  @Column({ type: 'bigint' })
  version: string;
}

/** A suspended account: until `until`, or for good when it is null. Lifting removes the row. */
@Entity({ name: 'account_suspensions' })
export class AccountSuspension {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'account_suspensions_pkey' })
  userId: string;

  @Column({ type: 'timestamptz', nullable: true })
  until: Date | null;

  @Column({ type: 'varchar', length: 1000 })
  reason: string;

  @Column('uuid')
  actionId: string;

  @Column({ type: 'bigint' })
  version: string;
}

/** An author's appeal of a decision: one per decision; it joins the queue until a moderator acts. */
@Entity({ name: 'moderation_appeals' })
@Index('moderation_appeals_action_once', ['actionId'], { unique: true })
@Index('moderation_appeals_pending_idx', ['status', 'createdAt'])
export class ModerationAppeal {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'moderation_appeals_pkey' })
  id: string;

  @Column('uuid')
  actionId: string;

  @Column('uuid')
  authorId: string;

  @Column({ type: 'varchar', length: 20, nullable: true })
  contentType: string | null;

  @Column({ type: 'uuid', nullable: true })
  contentId: string | null;

  @Column({ type: 'varchar', length: 1000 })
  text: string;

  /** pending, upheld (the decision stands), granted (undone). */
  @Column({ type: 'varchar', length: 20, default: 'pending' })
  status: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

export const moderationEntities = [StaffRoleRecord, ModerationAction, ModeratedContent, AccountSuspension, ModerationAppeal];
