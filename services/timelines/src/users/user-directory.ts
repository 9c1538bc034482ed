import { type EventBus, requestRpc } from '@timeliner/platform';
import { AuthRpc } from '@timeliner/proto';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { UserRecord } from './user.entity.js';
import type { UserRepository } from './user.repository.js';

export { lockPerson } from './user.repository.js';

export const UNKNOWN_USER = 'Unknown User';

export interface Person {
  userId: string;
  /** What the product shows for the person: display name, else username. */
  name: string;
}

export interface UserDirectoryOptions {
  /** How long to wait for the auth service's answer; default 1.5 s. */
  lookupTimeoutMs?: number;
}

/**
 * People as this service knows them: the local read model fed by auth events, and the auth
 * service itself for "does this e-mail address have an account?".
 */
export class UserDirectory {
  private readonly lookupTimeoutMs: number;

  constructor(
    private readonly users: UserRepository,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    options: UserDirectoryOptions = {},
  ) {
    this.lookupTimeoutMs = options.lookupTimeoutMs ?? 1_500;
  }

  get(userId: string, tx?: EntityManager): Promise<UserRecord | null> {
    return this.users.get(userId, tx);
  }

  /**
   * The name to store with a row about to be written in `tx`'s transaction. Holds the
   * person's lock until that transaction ends, as the handlers of their registration and renames
   * do: a registration handled at the same moment either comes first (and its name is read here)
   * or waits for this row to be committed (and renames it), never both missing each other.
   */
  async nameOf(userId: string, tx?: EntityManager): Promise<string> {
    if (tx) await this.users.lockPerson(tx, userId);
    const user = await this.users.get(userId, tx);
    return user ? displayNameOf(user) : UNKNOWN_USER;
  }

  /**
   * The account behind an address. The auth service is asked first (it is the authority, and the
   * read model may lag behind a registration by a moment); when it cannot answer in time, the
   * read model does.
   */
  async findByEmail(email: string): Promise<Person | null> {
    const address = email.trim().toLowerCase();
    try {
      const reply = await requestRpc(this.bus, AuthRpc.LookupUser, { email: address }, { timeoutMs: this.lookupTimeoutMs });
      if (!reply.found) return null;
      return { userId: reply.userId, name: reply.displayName || reply.username || UNKNOWN_USER };
    } catch (err) {
      this.logger.warn({ err }, 'auth user lookup failed; answering from the local read model');
      const user = await this.users.findByEmail(address);
      return user ? { userId: user.id, name: displayNameOf(user) } : null;
    }
  }
}

export const displayNameOf = (user: Pick<UserRecord, 'displayName' | 'username'>): string => user.displayName || user.username || UNKNOWN_USER;
