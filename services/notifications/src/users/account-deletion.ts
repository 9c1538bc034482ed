import { idOf, on, requestOutboxErasure } from '@timeliner/platform';
import { AuthEvents } from '@timeliner/proto';
import { forgetAccount } from './user-events.js';

/**
 * An account gone for good (auth's UserDeleted): its notifications, subscriptions and choices go
 * (`forgetAccount`), and so does every trace of it in other people's: its part in their grouped
 * notifications (a notification only it was in goes), its reactions, memberships, the copy of its
 * profile and of its uploads. Applying it twice finds nothing the second time.
 */
export const accountDeletionHandlers = [
  on(AuthEvents.UserDeleted, async (deleted, _meta, manager) => {
    const id = idOf(deleted.userId);
    if (!id) return;
    // The outbox rows naming the person go once sent.
    await requestOutboxErasure(manager, { userId: id, names: [deleted.username, deleted.email] });
    await forgetAccount(manager, id);
    const q = (sql: string) => manager.query(sql, [id]);
    const [touched] = (await q('DELETE FROM notification_activities WHERE actor_id = $1 RETURNING notification_id')) as [Array<{ notification_id: string }>, number];
    const notificationIds = [...new Set(touched.map((row) => row.notification_id))];
    if (notificationIds.length > 0) {
      // Others' notifications it was part of: one it alone made goes; the rest count one fewer.
      await manager.query('DELETE FROM notifications n WHERE n.id = ANY($1::uuid[]) AND NOT EXISTS (SELECT 1 FROM notification_activities a WHERE a.notification_id = n.id)', [notificationIds]);
      await manager.query('UPDATE notifications n SET count = (SELECT count(*) FROM notification_activities a WHERE a.notification_id = n.id) WHERE n.id = ANY($1::uuid[])', [notificationIds]);
    }
    await q('DELETE FROM notifications WHERE target_id = $1');
    await q('DELETE FROM told_once_a_day WHERE recipient_id = $1 OR actor_id = $1');
    await q(`DELETE FROM reaction_states WHERE user_id = $1 OR target_key = 'follow:' || $1::text`);
    await q('DELETE FROM timeline_members WHERE user_id = $1');
    await q('DELETE FROM timeline_member_removals WHERE user_id = $1');
    await q('DELETE FROM videos WHERE uploader_id = $1');
    await q('DELETE FROM person_filters WHERE owner_id = $1 OR other_id = $1');
    await q('DELETE FROM muted_words WHERE user_id = $1');
    await q('DELETE FROM muted_word_lists WHERE user_id = $1');
    await q('DELETE FROM moderation_hidden WHERE subject_id = $1');
    await q('DELETE FROM users WHERE id = $1');
  }),
];
