import { ForbiddenException, NotFoundException } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { isUuid } from '../ids.js';

export const USER_NOT_FOUND = 'User not found';
export const ACCOUNT_PRIVATE = 'This account is private';

/** The person's id, lower-cased; 404 for a malformed id or someone the users read model does not know. */
export async function requirePerson(dataSource: DataSource, rawId: string): Promise<{ id: string; isPrivate: boolean }> {
  if (!isUuid(rawId)) throw new NotFoundException(USER_NOT_FOUND);
  const id = rawId.toLowerCase();
  const [row] = (await dataSource.query('SELECT is_private FROM users WHERE id = $1', [id])) as Array<{ is_private: boolean }>;
  if (!row) throw new NotFoundException(USER_NOT_FOUND);
  return { id, isPrivate: row.is_private };
}

/**
 * A private account's activity, followers and following are visible only to itself and its
 * followers: anyone else (anonymous callers too) gets 403 "This account is private". 403 rather
 * than 404: the profile itself (auth service) says the account exists and is private, and the
 * screen shows that message in the tab. Unknown person: 404.
 */
export async function requireVisiblePersonLists(dataSource: DataSource, callerId: string | undefined, rawId: string): Promise<string> {
  const person = await requirePerson(dataSource, rawId);
  if (!person.isPrivate) return person.id;
  const caller = callerId?.toLowerCase();
  if (caller === person.id) return person.id;
  if (caller) {
    const follows: unknown[] = await dataSource.query('SELECT 1 FROM follows WHERE follower_id = $1 AND following_id = $2', [caller, person.id]);
    if (follows.length > 0) return person.id;
  }
  throw new ForbiddenException(ACCOUNT_PRIVATE);
}
