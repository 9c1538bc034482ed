import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * What this service knows of people, kept from the auth service's events: names for creators and
 * collaborators, and e-mail addresses to match invitations. Never written from a request.
 */
@Entity({ name: 'users' })
export class UserRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 30 })
  username: string;

  @Column({ type: 'varchar', length: 100 })
  displayName: string;

  /** Lower-cased. */
  @Index('users_email_idx')
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  avatar: string | null;

  /** A private account's timelines are seen only by itself, its collaborators and its approved followers (private-accounts/). */
  @Column({ type: 'boolean', default: false })
  isPrivate: boolean;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /** The profile version this copy holds (auth's profile_version): an older profile event changes nothing. */
  @Column({ type: 'bigint', default: 0 })
  profileVersion: string;
}
