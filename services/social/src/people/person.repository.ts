import type { DataSource } from 'typeorm';

/** What the access checks of a person's lists read: the users read model and the follows. */
export class PersonRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Whether the person's account is private; null for someone the users read model does not know. */
  async privacy(id: string): Promise<{ isPrivate: boolean } | null> {
    const [row] = (await this.dataSource.query('SELECT is_private AS "isPrivate" FROM users WHERE id = $1', [id])) as Array<{ isPrivate: boolean }>;
    return row ?? null;
  }

  async follows(followerId: string, followeeId: string): Promise<boolean> {
    const rows = (await this.dataSource.query('SELECT 1 FROM follows WHERE follower_id = $1 AND following_id = $2', [followerId, followeeId])) as unknown[];
    return rows.length > 0;
  }
}
