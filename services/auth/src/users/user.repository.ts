import { randomUUID } from 'node:crypto';
import { readOnly } from '@timeliner/platform';
import { type DataSource, type EntityManager, Not } from 'typeorm';
import { nextProfileVersion } from './profile-event.js';
import { User } from './user.entity.js';

/** Who uses an e-mail address, as other services may learn it. */
export interface UserSummary {
  id: string;
  username: string;
  displayName: string;
}

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  displayName: string;
}

/** A person's public profile as a read model's rebuild receives it. */
export interface PersonRow {
  id: string;
  username: string;
  displayName: string;
  avatar: string | null;
  bio: string | null;
  isPrivate: boolean;
  profileVersion: bigint;
  email: string;
}

interface RawPerson {
  id: string;
  username: string;
  display_name: string;
  avatar: string | null;
  bio: string | null;
  is_private: boolean;
  profile_version: string;
  email: string;
}

const PERSON_COLUMNS = 'id, username, display_name, avatar, bio, is_private, profile_version::text AS profile_version, email';

const toPerson = (row: RawPerson): PersonRow => ({
  id: row.id,
  username: row.username,
  displayName: row.display_name,
  avatar: row.avatar,
  bio: row.bio,
  isPrivate: row.is_private,
  profileVersion: BigInt(row.profile_version),
  email: row.email,
});

/** The database refused a second account with a username or address already in use. */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: string })?.code === '23505';

/** What a profile edit may change. */
export type ProfileFields = Pick<User, 'displayName' | 'bio' | 'avatar' | 'location' | 'website' | 'isPrivate'>;

/** users: accounts and their public profiles. Usernames and e-mail addresses are stored lower-cased. */
export class UserRepository {
  constructor(private readonly dataSource: DataSource) {}

  findById(id: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ id });
  }

  /** A person as their profile page shows them: from the read replica when there is one (readOnly). */
  findProfile(id: string): Promise<User | null> {
    return readOnly(this.dataSource).getRepository(User).findOneBy({ id });
  }

  /** Whether the person asked for their account to be deleted and has not cancelled (deletion/). */
  async deletionPending(id: string): Promise<boolean> {
    const rows: unknown[] = await readOnly(this.dataSource).query('SELECT 1 FROM account_deletions WHERE user_id = $1', [id]);
    return rows.length > 0;
  }

  findByEmail(email: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ email });
  }

  findByUsername(username: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ username });
  }

  async findSummaryByEmail(email: string): Promise<UserSummary | undefined> {
    const rows: Array<{ id: string; username: string; display_name: string }> = await this.dataSource.query('SELECT id, username, display_name FROM users WHERE email = $1', [email]);
    const row = rows[0];
    return row && { id: row.id, username: row.username, displayName: row.display_name };
  }

  /** Those of these people who still have an account, in id order. */
  async people(ids: string[]): Promise<PersonRow[]> {
    const rows: RawPerson[] = await this.dataSource.query(`SELECT ${PERSON_COLUMNS} FROM users WHERE id = ANY($1::uuid[]) ORDER BY id`, [ids]);
    return rows.map(toPerson);
  }

  /** A page of people in id order, after `afterId` (from the first without it). */
  async peoplePage(afterId: string | undefined, limit: number): Promise<PersonRow[]> {
    const rows: RawPerson[] = afterId
      ? await this.dataSource.query(`SELECT ${PERSON_COLUMNS} FROM users WHERE id > $1 ORDER BY id LIMIT $2`, [afterId, limit])
      : await this.dataSource.query(`SELECT ${PERSON_COLUMNS} FROM users ORDER BY id LIMIT $1`, [limit]);
    return rows.map(toPerson);
  }

  async count(): Promise<bigint> {
    const rows: Array<{ n: string }> = await this.dataSource.query('SELECT count(*)::text AS n FROM users');
    return BigInt(rows[0]!.n);
  }

  /** Whether someone other than `exceptId` uses the address. */
  emailTaken(email: string, exceptId: string): Promise<boolean> {
    return this.dataSource.getRepository(User).existsBy({ email, id: Not(exceptId) });
  }

  /** Inserts a new account (a taken username or address fails with a unique violation) and answers it as stored. */
  async insert(manager: EntityManager, user: NewUser): Promise<User> {
    const id = randomUUID();
    await manager.insert(User, manager.create(User, { id, ...user, bio: null, avatar: null }));
    return manager.findOneByOrFail(User, { id });
  }

  findByIdIn(manager: EntityManager, id: string): Promise<User | null> {
    return manager.findOneBy(User, { id });
  }

  getIn(manager: EntityManager, id: string): Promise<User> {
    return manager.findOneByOrFail(User, { id });
  }

  /** Changes profile fields and moves the profile one version up, in one statement. */
  async updateProfile(manager: EntityManager, id: string, changes: Partial<ProfileFields>): Promise<void> {
    await manager.update(User, { id }, { ...changes, profileVersion: nextProfileVersion });
  }

  /** A new sign-in address: a profile change like the others, one version up. */
  async setEmail(manager: EntityManager, id: string, email: string): Promise<void> {
    await manager.update(User, { id }, { email, profileVersion: nextProfileVersion });
  }

  async setPasswordHash(manager: EntityManager, id: string, passwordHash: string): Promise<void> {
    await manager.update(User, { id }, { passwordHash });
  }

  /** A sign-in: the (possibly upgraded) password hash and the time of activity. */
  async recordSignIn(manager: EntityManager, id: string, passwordHash: string): Promise<void> {
    await manager.update(User, { id }, { passwordHash, lastActiveAt: new Date() });
  }
}
