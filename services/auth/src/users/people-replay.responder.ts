import { type EventBus, isUuid, serveRpc, type Subscription } from '@timeliner/platform';
import { AuthRpc } from '@timeliner/proto';
import type { PersonRow, UserRepository } from './user.repository.js';

const MAX_PAGE = 1000;

/**
 * Answers a read model's rebuild (AuthRpc.Replay): the people's public profiles as they stand, one
 * page in id order at a time, or those of a list of ids that still exist. Read only; nothing goes
 * through the outbox. Queue group `auth`.
 */
export function servePeopleReplay(bus: EventBus, users: UserRepository): Promise<Subscription> {
  return serveRpc(bus, AuthRpc.Replay, 'auth', async ({ afterId, limit, userIds }) => {
    const size = Math.min(Math.max(1, limit || 200), MAX_PAGE);
    let rows: PersonRow[];
    if (userIds.length > 0) {
      rows = await users.people(userIds.filter((id) => isUuid(id)).slice(0, MAX_PAGE));
    } else {
      if (afterId && !isUuid(afterId)) throw new Error('after_id is not a user id');
      rows = await users.peoplePage(afterId || undefined, size);
    }
    const first = !afterId && userIds.length === 0;
    const total = first ? await users.count() : 0n;
    return {
      people: rows.map((row) => ({
        userId: row.id,
        username: row.username,
        displayName: row.displayName,
        isPrivate: row.isPrivate,
        profileVersion: row.profileVersion,
        email: row.email,
        ...(row.avatar ? { avatar: row.avatar } : {}),
        ...(row.bio ? { bio: row.bio } : {}),
      })),
      total,
    };
  });
}
