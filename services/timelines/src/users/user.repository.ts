import type { DataSource, EntityManager } from 'typeorm';
import { UserRecord } from './user.entity.js';

/** A transaction's lock on one person's name as this service stores it (released at its end). */
export async function lockPerson(tx: EntityManager, userId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('timelines.person-name:' || $1, 0))`, [userId]);
}

/** The local read model of people (users table), kept from the auth service's events. */
export class UserRepository {
  constructor(private readonly dataSource: DataSource) {}

  get(userId: string, tx: EntityManager = this.dataSource.manager): Promise<UserRecord | null> {
    return tx.findOneBy(UserRecord, { id: userId });
  }

  /** The person with this address (lower-case); null when the read model has none. */
  findByEmail(email: string): Promise<UserRecord | null> {
    return this.dataSource.manager.findOneBy(UserRecord, { email });
  }

  /** Holds the person's name lock in `tx` until it ends (see lockPerson). */
  lockPerson(tx: EntityManager, userId: string): Promise<void> {
    return lockPerson(tx, userId);
  }
}
