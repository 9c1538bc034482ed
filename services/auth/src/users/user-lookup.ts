import type { UserRepository } from './user.repository.js';

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
  constructor(private readonly users: UserRepository) {}

  async byEmail(email: string): Promise<FoundUser> {
    // Addresses are stored trimmed and lower-cased.
    const address = email.trim().toLowerCase();
    if (address === '' || address.length > 254) return NOT_FOUND;
    const user = await this.users.findSummaryByEmail(address);
    return user ? { found: true, userId: user.id, username: user.username, displayName: user.displayName } : NOT_FOUND;
  }
}
