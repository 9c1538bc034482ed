import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A person's account and public profile. The counters are maintained by other services through
 * events (follows, timelines, likes, views); they start at zero.
 */
@Entity({ name: 'users' })
export class User {
  @PrimaryColumn('uuid')
  id: string;

  /** Stored lower-cased: usernames are unique regardless of case. */
  @Index('users_username_key', { unique: true })
  @Column({ type: 'varchar', length: 30 })
  username: string;

  /** Stored trimmed and lower-cased. */
  @Index('users_email_key', { unique: true })
  @Column({ type: 'varchar', length: 254 })
  email: string;

  /** argon2id hash (PHC string). Never leaves this service. */
  @Column({ type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ type: 'varchar', length: 80 })
  displayName: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  bio: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  avatar: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  coverImage: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  website: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  location: string | null;

  @Column({ type: 'boolean', default: false })
  isVerified: boolean;

  @Column({ type: 'boolean', default: false })
  isPrivate: boolean;

  /**
   * One more with every profile change (users/profile-event.ts); carried by UserRegistered,
   * UserUpdated and the people replay, so the other services' copies never go back in time.
   */
  @Column({ type: 'bigint', default: 1 })
  profileVersion: string;

  @Column({ type: 'integer', default: 0 })
  followersCount: number;

  @Column({ type: 'integer', default: 0 })
  followingCount: number;

  /**
   * Versions of the two counts above, from the social service's FollowChanged events: a count is
   * taken only from an event newer than the one it came from (users/follow-count-events.ts).
   */
  @Column({ type: 'bigint', default: 0 })
  followersVersion: string;

  @Column({ type: 'bigint', default: 0 })
  followingVersion: string;

  /**
   * Timelines the person created (any visibility or status), and of them the public, published
   * ones: the profile shows the first to the person, the second to everyone else. These and the
   * two totals below are kept from the timelines and social services' events
   * (counts/content-count-events.ts): each is the sum over the person's rows of profile_timelines
   * and like_targets.
   */
  @Column({ type: 'integer', default: 0 })
  timelinesCount: number;

  @Column({ type: 'integer', default: 0 })
  publicTimelinesCount: number;

  @Column({ type: 'bigint', default: 0, transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  totalLikes: number;

  @Column({ type: 'bigint', default: 0, transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  totalViews: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  joinedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastActiveAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
