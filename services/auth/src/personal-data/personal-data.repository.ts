import { keysetPage, keysetSql, type KeyedRecord, type PersonalDataPage } from '@timeliner/platform';
import type { DataSource } from 'typeorm';

/** A person's own account data as auth holds it, for their data archive (never the password hash). */
export class PersonalDataRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The profile and the account's settings: one record. */
  async profile(userId: string, cursor: string, limit: number): Promise<PersonalDataPage> {
    const rows = (await this.dataSource.query(
      keysetSql(`SELECT id::text AS k, json_build_object(
          'id', id, 'username', username, 'email', email, 'displayName', display_name, 'bio', bio, 'avatar', avatar, 'coverImage', cover_image,
          'website', website, 'location', location, 'isPrivate', is_private, 'isVerified', is_verified,
          'joinedAt', joined_at, 'lastActiveAt', last_active_at, 'updatedAt', updated_at) AS record
        FROM users WHERE id = $1`),
      [userId, cursor, limit],
    )) as KeyedRecord[];
    return keysetPage(rows, limit);
  }
}
