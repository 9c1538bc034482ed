import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../users/user.entity.js';

/** A passkey (WebAuthn credential) of a person: its id and public key as the authenticator gave them, and a name of their choosing. */
@Entity({ name: 'passkeys' })
@Index('passkeys_user_id_idx', ['userId'])
export class Passkey {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  /** base64url, as WebAuthn names it. */
  @Index('passkeys_credential_id_key', { unique: true })
  @Column({ type: 'varchar', length: 1400 })
  credentialId: string;

  /** COSE public key. */
  @Column({ type: 'bytea' })
  publicKey: Buffer;

  @Column({ type: 'bigint', default: 0 })
  counter: string;

  /** Comma-separated transports the authenticator named (internal, usb, hybrid ...). */
  @Column({ type: 'varchar', length: 200, default: '' })
  transports: string;

  @Column({ type: 'varchar', length: 60 })
  name: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}

/**
 * A WebAuthn challenge given out and not yet answered: kept server-side, used once (taken by the
 * statement that deletes it), gone after `expiresAt`. `userId` is null for a sign-in with a passkey
 * alone, where the person is not known until the answer.
 */
@Entity({ name: 'webauthn_challenges' })
@Index('webauthn_challenges_expires_at_idx', ['expiresAt'])
export class WebauthnChallenge {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  /** register, sign-in or confirm. */
  @Column({ type: 'varchar', length: 20 })
  purpose: string;

  @Column({ type: 'varchar', length: 128 })
  challenge: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
