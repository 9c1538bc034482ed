import { ForbiddenException, NotFoundException } from '@nestjs/common';
import { isUuid } from '@timeliner/platform';
import type { PersonRepository } from './person.repository.js';

export const USER_NOT_FOUND = 'User not found';
export const ACCOUNT_PRIVATE = 'This account is private';

/** The person's id, lower-cased; 404 for a malformed id or someone the users read model does not know. */
export async function requirePerson(people: PersonRepository, rawId: string): Promise<{ id: string; isPrivate: boolean }> {
  if (!isUuid(rawId)) throw new NotFoundException(USER_NOT_FOUND);
  const id = rawId.toLowerCase();
  const person = await people.privacy(id);
  if (!person) throw new NotFoundException(USER_NOT_FOUND);
  return { id, isPrivate: person.isPrivate };
}

/**
 * A private account's activity, followers and following are visible only to itself and its
 * followers: anyone else (anonymous callers too) gets 403 "This account is private". 403 rather
 * than 404: the profile itself (auth service) says the account exists and is private, and the
 * screen shows that message in the tab. Unknown person: 404.
 */
export async function requireVisiblePersonLists(people: PersonRepository, callerId: string | undefined, rawId: string): Promise<string> {
  const person = await requirePerson(people, rawId);
  if (!person.isPrivate) return person.id;
  const caller = callerId?.toLowerCase();
  if (caller === person.id) return person.id;
  if (caller && (await people.follows(caller, person.id))) return person.id;
  throw new ForbiddenException(ACCOUNT_PRIVATE);
}
