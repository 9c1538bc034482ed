import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, OneToOne, PrimaryColumn } from 'typeorm';
import { User } from '../users/user.entity.js';

/**
 * A person's authenticator app (TOTP, RFC 6238). The secret is stored sealed (AES-256-GCM when the
 * service has a key) and is never shown again once set up; two-step sign-in is on from
 * `confirmedAt`. `lastStep` is the latest 30-second step whose code was accepted: a code is used once.
 */
@Entity({ name: 'totp_factors' })
export class TotpFactor {
  @PrimaryColumn('uuid')
  userId: string;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 200 })
  secret: string;

  @Column({ type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  @Column({ type: 'bigint', nullable: true })
  lastStep: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** One of the ten single-use recovery codes: SHA-256 of a salt of its own and the code, never the code. */
@Entity({ name: 'recovery_codes' })
@Index('recovery_codes_user_id_idx', ['userId'])
export class RecoveryCode {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'char', length: 32 })
  salt: string;

  @Column({ type: 'char', length: 64 })
  codeHash: string;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/**
 * A password that was right for an account with two-step sign-in: a short-lived token (stored
 * hashed) that a correct code turns into a session, once; wrong codes are counted on it.
 */
@Entity({ name: 'pending_sign_ins' })
@Index('pending_sign_ins_user_id_idx', ['userId'])
export class PendingSignIn {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('pending_sign_ins_token_hash_key', { unique: true })
  @Column({ type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
