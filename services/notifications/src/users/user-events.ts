import { clipCodeUnits, idOf, MissingReferenceError, on } from '@timeliner/platform';
import { AuthEvents, RevocationReason } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { outsidersOfSql } from '../notifications/content-access.js';
import type { Notifier } from '../notifications/notifier.js';
import { UserRecord } from './user.entity.js';

/**
 * Keeps the people read model (names, avatars, usernames for mentions, e-mails for invitations,
 * private accounts); an account made private takes back what its outsiders were told about its
 * content.
 */
export const userEventHandlers = (notifier: Notifier) => [
  on(AuthEvents.UserRegistered, async (user, _meta, manager) => {
    const id = idOf(user.userId);
    if (!id) return;
    // A copy already at a later profile version (its UserUpdated came first) stays as it is.
    const held = await manager.findOne(UserRecord, { where: { id }, lock: { mode: 'pessimistic_write' } });
    if (held && BigInt(held.profileVersion) > user.profileVersion) return;
    await manager.upsert(
      UserRecord,
      {
        id,
        username: clipCodeUnits(user.username.toLowerCase(), 30),
        displayName: clipCodeUnits(user.displayName, 100),
        avatar: user.avatar ? clipCodeUnits(user.avatar, 2048) : null,
        email: user.email ? clipCodeUnits(user.email.trim().toLowerCase(), 320) : null,
        isPrivate: user.isPrivate,
        profileVersion: user.profileVersion.toString(),
      },
      ['id'],
    );
  }),
  on(AuthEvents.UserUpdated, async (change, _meta, manager) => {
    const id = idOf(change.userId);
    if (!id) return;
    const user = await manager.findOne(UserRecord, { where: { id }, lock: { mode: 'pessimistic_write' } });
    // Registration comes on another subject, which may be behind: tried again until it is in.
    if (!user) throw new MissingReferenceError('user', id);
    if (change.profileVersion > 0n) {
      // The whole profile at that version: taken over an older copy only (retries come out of order).
      if (BigInt(user.profileVersion) >= change.profileVersion) return;
      user.displayName = clipCodeUnits(change.displayName ?? '', 100);
      if (change.username) user.username = clipCodeUnits(change.username.toLowerCase(), 30);
      user.avatar = change.avatar ? clipCodeUnits(change.avatar, 2048) : null;
      if (change.email) user.email = clipCodeUnits(change.email.trim().toLowerCase(), 320);
      const madePrivate = change.isPrivate === true && !user.isPrivate;
      if (change.isPrivate !== undefined) user.isPrivate = change.isPrivate;
      user.profileVersion = change.profileVersion.toString();
      await manager.save(UserRecord, user);
      if (madePrivate) await notifier.dropWhere(manager, outsidersOfSql('$1::uuid'), [id]);
      return;
    }
    // An event from before versions: only what changed is present; an empty string means the field was cleared.
    if (change.displayName !== undefined) user.displayName = clipCodeUnits(change.displayName, 100);
    if (change.username !== undefined && change.username !== '') user.username = clipCodeUnits(change.username.toLowerCase(), 30);
    if (change.avatar !== undefined) user.avatar = change.avatar === '' ? null : clipCodeUnits(change.avatar, 2048);
    if (change.email !== undefined && change.email !== '') user.email = clipCodeUnits(change.email.trim().toLowerCase(), 320);
    const madePrivate = change.isPrivate === true && !user.isPrivate;
    if (change.isPrivate !== undefined) user.isPrivate = change.isPrivate;
    await manager.save(UserRecord, user);
    if (madePrivate) await notifier.dropWhere(manager, outsidersOfSql('$1::uuid'), [id]);
  }),
  // A deleted account: its notifications, subscriptions and choices go with it.
  on(AuthEvents.SessionRevoked, async (revoked, _meta, manager) => {
    if (revoked.reason !== RevocationReason.ACCOUNT_DELETED) return;
    const id = idOf(revoked.userId);
    if (!id) return;
    await forgetAccount(manager, id);
  }),
];

/** What a deleted account had here: its notifications, subscriptions and choices (also a people rebuild's removal). */
export async function forgetAccount(manager: EntityManager, id: string): Promise<void> {
  await manager.query('DELETE FROM notification_activities WHERE recipient_id = $1', [id]);
  await manager.query('DELETE FROM notifications WHERE recipient_id = $1', [id]);
  await manager.query('DELETE FROM push_subscriptions WHERE user_id = $1', [id]);
  await manager.query('DELETE FROM preferences WHERE user_id = $1', [id]);
}
