import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A browser's Web Push subscription (RFC 8030 endpoint, RFC 8291 keys) of one person. */
@Entity({ name: 'push_subscriptions' })
@Index('push_subscriptions_user_idx', ['userId'])
@Index('push_subscriptions_endpoint_idx', ['endpoint'], { unique: true })
export class PushSubscription {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @Column({ type: 'varchar', length: 2048 })
  endpoint: string;

  /** The browser's P-256 public key, base64url (65 bytes uncompressed). */
  @Column({ type: 'varchar', length: 100 })
  p256dh: string;

  /** The 16-byte authentication secret, base64url. */
  @Column({ type: 'varchar', length: 40 })
  auth: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
