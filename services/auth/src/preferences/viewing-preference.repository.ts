import type { DataSource } from 'typeorm';

export interface ViewingPreferenceRow {
  alwaysShowSensitive: boolean;
}

const DEFAULTS: ViewingPreferenceRow = { alwaysShowSensitive: false };

/** viewing_preferences: one row per person who changed a default. */
export class ViewingPreferenceRepository {
  constructor(private readonly dataSource: DataSource) {}

  async get(userId: string): Promise<ViewingPreferenceRow> {
    const rows: Array<{ always_show_sensitive: boolean }> = await this.dataSource.query('SELECT always_show_sensitive FROM viewing_preferences WHERE user_id = $1', [userId]);
    return rows[0] ? { alwaysShowSensitive: rows[0].always_show_sensitive } : DEFAULTS;
  }

  async set(userId: string, changes: Partial<ViewingPreferenceRow>): Promise<ViewingPreferenceRow> {
    const rows: Array<{ always_show_sensitive: boolean }> = await this.dataSource.query(
      `INSERT INTO viewing_preferences (user_id, always_show_sensitive, updated_at) VALUES ($1, COALESCE($2, false), now())
       ON CONFLICT (user_id) DO UPDATE SET always_show_sensitive = COALESCE($2, viewing_preferences.always_show_sensitive), updated_at = now()
       RETURNING always_show_sensitive`,
      [userId, changes.alwaysShowSensitive ?? null],
    );
    return { alwaysShowSensitive: rows[0]!.always_show_sensitive };
  }
}
