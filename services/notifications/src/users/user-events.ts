import { on } from '@timeliner/platform';
import { AuthEvents, RevocationReason } from '@timeliner/proto';
import { idOf } from '../ids.js';
import { UserRecord } from './user.entity.js';

const clip = (value: string, max: number) => value.slice(0, max);

/** Keeps the people read model (names, avatars, usernames for mentions, e-mails for invitations). */
export const userEventHandlers = [
  on(AuthEvents.UserRegistered, async (user, _meta, manager) => {
    const id = idOf(user.userId);
    if (!id) return;
    await manager.upsert(
      UserRecord,
      {
        id,
        username: clip(user.username.toLowerCase(), 30),
        displayName: clip(user.displayName, 100),
        avatar: user.avatar ? clip(user.avatar, 2048) : null,
        email: user.email ? clip(user.email.trim().toLowerCase(), 320) : null,
      },
      ['id'],
    );
  }),
  on(AuthEvents.UserUpdated, async (change, _meta, manager) => {
    const id = idOf(change.userId);
    if (!id) return;
    const user = await manager.findOneBy(UserRecord, { id });
    // Registration comes first on the same stream; an update for someone unknown has nothing to change.
    if (!user) return;
    // Only what changed is present; an empty string means the field was cleared.
    if (change.displayName !== undefined) user.displayName = clip(change.displayName, 100);
    if (change.username !== undefined && change.username !== '') user.username = clip(change.username.toLowerCase(), 30);
    if (change.avatar !== undefined) user.avatar = change.avatar === '' ? null : clip(change.avatar, 2048);
    await manager.save(UserRecord, user);
  }),
  // A deleted account: its notifications, subscriptions and choices go with it.
  on(AuthEvents.SessionRevoked, async (revoked, _meta, manager) => {
    if (revoked.reason !== RevocationReason.ACCOUNT_DELETED) return;
    const id = idOf(revoked.userId);
    if (!id) return;
    await manager.query('DELETE FROM notification_activities WHERE recipient_id = $1', [id]);
    await manager.query('DELETE FROM notifications WHERE recipient_id = $1', [id]);
    await manager.query('DELETE FROM push_subscriptions WHERE user_id = $1', [id]);
    await manager.query('DELETE FROM preferences WHERE user_id = $1', [id]);
  }),
];
