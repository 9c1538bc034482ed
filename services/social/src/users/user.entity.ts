import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * What this service knows of people, kept from the auth service's events: the name, username and
 * avatar shown beside their comments (and, later, posts). Never written from a request.
 */
@Entity({ name: 'users' })
export class UserRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 30 })
  username: string;

  @Column({ type: 'varchar', length: 100 })
  displayName: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  avatar: string | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
