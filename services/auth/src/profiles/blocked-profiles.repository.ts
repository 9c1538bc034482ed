import type { DataSource } from 'typeorm';
import { copyNotBlockedSql, readOnly } from '@timeliner/platform';

/**
 * This service's copy of the blocks (platform person-filters, kept from the social service's
 * BlockChanged): a blocked pair's profiles are 404 to each other, as if absent (issue 28).
 */
export class BlockedProfilesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async blockedEitherWay(viewerId: string, personId: string): Promise<boolean> {
    const rows: unknown[] = await readOnly(this.dataSource).query(`SELECT 1 WHERE NOT ${copyNotBlockedSql('$1::uuid', '$2::uuid')}`, [viewerId.toLowerCase(), personId.toLowerCase()]);
    return rows.length > 0;
  }
}
