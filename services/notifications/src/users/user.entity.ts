import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * What this service knows of people, kept from the auth service's events: the names and avatars
 * shown beside notifications, the username a mention names, and the e-mail address an invitation
 * is sent to. Never written from a request.
 */
@Entity({ name: 'users' })
@Index('users_username_idx', ['username'])
@Index('users_email_idx', ['email'])
// The few private accounts, for the private-account rule's lookup (migration 1768400000000).
@Index('users_private_idx', ['id'], { where: '"is_private"' })
export class UserRecord {
  @PrimaryColumn('uuid')
  id: string;

  /** Lower-case, as mentions carry it. */
  @Column({ type: 'varchar', length: 30 })
  username: string;

  @Column({ type: 'varchar', length: 100 })
  displayName: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  avatar: string | null;

  /** Lower-case; null when the account's registration did not carry one. */
  @Column({ type: 'varchar', length: 320, nullable: true })
  email: string | null;

  /** The account is private (auth's isPrivate): only its approved followers are told about its content. */
  @Column({ type: 'boolean', default: false })
  isPrivate: boolean;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /** The profile version this copy holds (auth's profile_version): an older profile event changes nothing. */
  @Column({ type: 'bigint', default: 0 })
  profileVersion: string;
}
