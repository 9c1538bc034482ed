import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A person as search knows them, kept from the auth service's events (name, username, bio,
 * avatar) and the social service's follow counts (ranking). Never written from a request.
 */
@Entity({ name: 'users' })
// Full-text and trigram indexes, made by the migration.
@Index('users_document_idx', { synchronize: false })
@Index('users_names_trgm_idx', { synchronize: false })
@Index('users_username_key_idx', { synchronize: false })
// The few private accounts, for the private-account rule's lookup (migration 1768400000000).
@Index('users_private_idx', ['id'], { where: '"is_private"' })
export class SearchUser {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 30 })
  username: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  displayName: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  bio: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  avatar: string | null;

  @Column({ type: 'boolean', default: false })
  isPrivate: boolean;

  @Column({ type: 'integer', default: 0 })
  followersCount: number;

  /** Version of followersCount (FollowChanged.followers_version): an older count never overwrites a newer one. */
  @Column({ type: 'bigint', default: 0 })
  followersVersion: string;

  /** The username as matched: lower case, no accents (users_document trigger). */
  @Column({ type: 'varchar', length: 30, default: '' })
  usernameKey: string;

  /** Username and display name as matched, for trigram similarity (users_document trigger). */
  @Column({ type: 'varchar', length: 140, default: '' })
  names: string;

  /** Built by the users_document trigger. */
  @Column({ type: 'tsvector', nullable: true, select: false })
  document: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  /** The profile version this copy holds (auth's profile_version): an older profile event changes nothing. */
  @Column({ type: 'bigint', default: 0 })
  profileVersion: string;
}
