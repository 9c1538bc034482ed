import type { DataSource } from 'typeorm';

export interface FoundUser {
  found: boolean;
  userId: string;
  username: string;
  displayName: string;
}

const NOT_FOUND: FoundUser = { found: false, userId: '', username: '', displayName: '' };

/**
 * Answers other services' "does this e-mail address have an account?" (the timelines service,
 * inviting a collaborator by address). Only services reach it, over the bus; browsers never do.
 */
export class UserLookup {
  constructor(private readonly dataSource: DataSource) {}

  async byEmail(email: string): Promise<FoundUser> {
    // Addresses are stored trimmed and lower-cased.
    const address = email.trim().toLowerCase();
    if (address === '' || address.length > 254) return NOT_FOUND;
    const rows: Array<{ id: string; username: string; display_name: string }> = await this.dataSource.query(
      'SELECT id, username, display_name FROM users WHERE email = $1',
      [address],
    );
    const row = rows[0];
    return row ? { found: true, userId: row.id, username: row.username, displayName: row.display_name } : NOT_FOUND;
  }
}
