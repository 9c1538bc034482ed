import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One counted action of one person (an invitation e-mail sent, an export started), kept while a
 * PersonLimiter window can still see it. Lives in the schema of the service that counts; the table
 * is created by `createPersonLimitTable` in one of its migrations.
 */
@Entity({ name: 'person_limit_hits' })
@Index('person_limit_hits_lookup_idx', ['userId', 'action', 'at'])
export class PersonLimitHit {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'person_limit_hits_pkey' })
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  /** What is counted, e.g. `invitation-mail`. */
  @Column({ type: 'varchar', length: 40 })
  action: string;

  @Column({ type: 'timestamptz' })
  at: Date;
}
