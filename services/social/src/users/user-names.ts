import { clipCodeUnits } from '@timeliner/platform';
import type { EntityManager } from 'typeorm';
import { UserRecord } from './user.entity.js';

export const UNKNOWN_USER = 'Unknown User';

/** What the product shows for a person: display name, else username. */
export const displayNameOf = (user: Pick<UserRecord, 'displayName' | 'username'>): string => user.displayName || user.username || UNKNOWN_USER;

/**
 * The name to store with something a person writes: empty when the read model has not heard of
 * them yet (their registration event fills it in, see user-events.ts).
 */
export async function storedNameOf(manager: EntityManager, userId: string): Promise<string> {
  const user = await manager.findOne(UserRecord, { where: { id: userId }, select: { username: true, displayName: true } });
  return user ? clipCodeUnits(displayNameOf(user), 100) : '';
}
