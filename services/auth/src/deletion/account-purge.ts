import { type EventWriter, idOf, on, requestOutboxErasure } from '@timeliner/platform';
import { AuthEvents, RevocationReason } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';

/**
 * The second `UserDeleted` of accounts purged an hour or more before `now` (their last trace here
 * goes with it): every service applies it as the first, and finds only what events sent while the
 * first was applied wrote about the person. Answers how many.
 */
export async function sweepPurged(manager: EntityManager, events: EventWriter, now: Date): Promise<number> {
  const [due] = (await manager.query('DELETE FROM purged_accounts WHERE sweep_after <= $1 RETURNING user_id, username, email', [now])) as [Array<{ user_id: string; username: string; email: string }>, number];
  for (const account of due) {
    await events.add(manager, AuthEvents.UserDeleted, { userId: account.user_id, username: account.username, email: account.email }, { actorUserId: account.user_id, requestId: `account-purge:${account.user_id}` });
  }
  return due.length;
}

/** Who an account was, as the deletion event carries it. */
export interface PurgedAccount {
  userId: string;
  username: string;
  email: string;
}

/**
 * Deletes an account for good, in the caller's transaction: every row of this service that names
 * the person (the account with its sessions, factors, links and preferences by cascade; the copies
 * of their filters, counts and suspensions; the sign-in counters keyed by their id, name or
 * address), then `UserDeleted`, which every other service applies. Sessions still open (an
 * operator's deletion at once) end with ACCOUNT_DELETED first, so every gateway drops them. Null
 * when there is no such account (already purged): applying it twice is harmless.
 */
export async function purgeAccount(manager: EntityManager, events: EventWriter, userId: string, meta: { requestId?: string | undefined } = {}): Promise<PurgedAccount | null> {
  const [user] = (await manager.query('SELECT id, username, email FROM users WHERE id = $1 FOR UPDATE', [userId])) as Array<{ id: string; username: string; email: string }>;
  if (!user) return null;
  const context = { actorUserId: user.id, ...(meta.requestId ? { requestId: meta.requestId } : {}) };
  const open = (await manager.query(`SELECT id, token_hash FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`, [user.id])) as Array<{ id: string; token_hash: string }>;
  for (const session of open) {
    await events.add(manager, AuthEvents.SessionRevoked, { sessionId: session.id, userId: user.id, tokenHash: session.token_hash, reason: RevocationReason.ACCOUNT_DELETED }, context);
  }
  const names = [user.id, user.username.toLowerCase(), user.email.toLowerCase()];
  // Counter keys end in the account (`user:<id>`, `name:<typed>`, an address) or carry it before the client address.
  await manager.query(
    `DELETE FROM rate_limits WHERE key LIKE ANY (ARRAY(SELECT '%:' || replace(replace(n, '%', '\\%'), '_', '\\_') || s FROM unnest($1::text[]) n, unnest(ARRAY['', ':%']) s))`,
    [names],
  );
  await manager.query('DELETE FROM person_filters WHERE owner_id = $1 OR other_id = $1', [user.id]);
  await manager.query('DELETE FROM muted_words WHERE user_id = $1', [user.id]);
  await manager.query('DELETE FROM muted_word_lists WHERE user_id = $1', [user.id]);
  await manager.query('DELETE FROM profile_timelines WHERE creator_id = $1', [user.id]);
  await manager.query('DELETE FROM like_targets WHERE owner_id = $1', [user.id]);
  await manager.query('DELETE FROM account_suspensions WHERE user_id = $1', [user.id]);
  await manager.query('DELETE FROM webauthn_challenges WHERE user_id = $1', [user.id]);
  await manager.query('DELETE FROM email_changes WHERE user_id = $1', [user.id]);
  await manager.query('DELETE FROM viewing_preferences WHERE user_id = $1', [user.id]);
  // Sessions, resets, passkeys, authenticator, recovery codes, pending sign-ins, preferences, the deletion request: by cascade.
  await manager.query('DELETE FROM users WHERE id = $1', [user.id]);
  await events.add(manager, AuthEvents.UserDeleted, { userId: user.id, username: user.username.toLowerCase(), email: user.email.toLowerCase() }, context);
  // Once more in an hour, for what events sent meanwhile write about the person (sweepPurged).
  await manager.query(
    `INSERT INTO purged_accounts (user_id, username, email, sweep_after) VALUES ($1, $2, $3, now() + interval '1 hour') ON CONFLICT (user_id) DO NOTHING`,
    [user.id, user.username.toLowerCase(), user.email.toLowerCase()],
  );
  return { userId: user.id, username: user.username, email: user.email };
}

/**
 * This service's own UserDeleted, heard back: the copies other services' events keep here (a
 * post's or timeline's counts, filters) that were written after the purge by events the deletion
 * itself caused go as well, and the outbox rows naming the person (this UserDeleted among them,
 * sent by now) go once nothing naming them waits to be sent (platform bus/outbox-erasure.ts).
 * Nothing happens while the account exists.
 */
export const purgedAccountHandlers = [
  on(AuthEvents.UserDeleted, async (deleted, _meta, manager) => {
    const id = idOf(deleted.userId);
    if (!id) return;
    const [account] = (await manager.query('SELECT 1 FROM users WHERE id = $1', [id])) as unknown[];
    if (account) return;
    await requestOutboxErasure(manager, { userId: id, names: [deleted.username, deleted.email] });
    await manager.query('DELETE FROM like_targets WHERE owner_id = $1', [id]);
    await manager.query('DELETE FROM profile_timelines WHERE creator_id = $1', [id]);
    await manager.query('DELETE FROM person_filters WHERE owner_id = $1 OR other_id = $1', [id]);
    await manager.query('DELETE FROM muted_words WHERE user_id = $1', [id]);
    await manager.query('DELETE FROM muted_word_lists WHERE user_id = $1', [id]);
    await manager.query('DELETE FROM account_suspensions WHERE user_id = $1', [id]);
  }),
];
