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

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
