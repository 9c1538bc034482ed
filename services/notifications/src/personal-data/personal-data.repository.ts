import { keysetPage, keysetSql, type KeyedRecord, type PersonalDataPage } from '@timeliner/platform';
import type { DataSource } from 'typeorm';

/** A person's notification settings, for their data archive. */
export class PersonalDataRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One record per notification type the person has set: in the app, pushed. */
  async settings(userId: string, cursor: string, limit: number): Promise<PersonalDataPage> {
    const rows = (await this.dataSource.query(
      keysetSql(`SELECT type AS k, json_build_object('type', type, 'inApp', in_app, 'push', push) AS record FROM preferences WHERE user_id = $1`),
      [userId, cursor, limit],
    )) as KeyedRecord[];
    return keysetPage(rows, limit);
  }
}
