import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { User } from '../users/user.entity.js';

/**
 * An account whose owner asked for it to be deleted: its sessions ended then, and at `purgeAfter`
 * (30 days later) everything naming the person goes (deletion/account-purge.ts). Signing in before
 * then answers a short-lived token (stored hashed) that cancels the deletion and opens a session.
 */
@Entity({ name: 'account_deletions' })
@Index('account_deletions_purge_after_idx', ['purgeAfter'])
export class AccountDeletion {
  @PrimaryColumn('uuid')
  userId: string;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'timestamptz' })
  requestedAt: Date;

  @Column({ type: 'timestamptz' })
  purgeAfter: Date;

  @Index('account_deletions_cancel_token_hash_key', { unique: true })
  @Column({ type: 'char', length: 64, nullable: true })
  cancelTokenHash: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  cancelTokenExpiresAt: Date | null;

  /** The version of the AccountDeletionChanged that asked for it (account_deletion_version_seq): what its replay carries. */
  @Column({ type: 'bigint' })
  version: string;
}

/**
 * An account just purged: an hour later `UserDeleted` goes out once more, so every service also
 * forgets what events sent while the first one was applied wrote about the person (a like taken
 * back, a follow ended); then this row goes too.
 */
@Entity({ name: 'purged_accounts' })
@Index('purged_accounts_sweep_after_idx', ['sweepAfter'])
export class PurgedAccountSweep {
  @PrimaryColumn('uuid')
  userId: string;

  @Column({ type: 'varchar', length: 30 })
  username: string;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'timestamptz' })
  sweepAfter: Date;
}
