import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * What this service knows of people, kept from the auth service's events: the name, username and
 * avatar shown beside their comments (and, later, posts). Never written from a request.
 */
@Entity({ name: 'users' })
// The few private accounts, for the private-account rule's lookup (migration 1768400000000).
@Index('users_private_idx', ['id'], { where: '"is_private"' })
export class UserRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 30 })
  username: string;

  @Column({ type: 'varchar', length: 100 })
  displayName: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  avatar: string | null;

  /**
   * A private account's activity, followers and following are shown only to itself and its
   * followers (people/person-access.ts). False until the auth service's events say otherwise:
   * AuthEvents v1 carry no such flag yet (see privateFlagOf in user-events.ts).
   */
  @Column({ type: 'boolean', default: false })
  isPrivate: boolean;

  /**
   * When the account was registered (the UserRegistered event's time): how old an account is, for
   * holding comments from new accounts. Null when not known (a copy rebuilt from the replay).
   */
  @Column({ type: 'timestamptz', nullable: true })
  registeredAt: Date | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /** The profile version this copy holds (auth's profile_version): an older profile event changes nothing. */
  @Column({ type: 'bigint', default: 0 })
  profileVersion: string;
}
