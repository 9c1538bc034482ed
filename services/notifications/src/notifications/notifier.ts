import { randomUUID } from 'node:crypto';
import type { NotificationEntry } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { PreferenceRepository } from '../preferences/preference.repository.js';
import { describe, GROUP_WINDOW_MS, groupKeyOf, linkOf, type NotificationKind, type TargetType, TYPE_OF } from './notification-kinds.js';
import { UNKNOWN_PERSON } from './notification.repository.js';

/** One thing that happened that a person is to be told about. */
export interface Activity {
  recipientId: string;
  kind: NotificationKind;
  target: { type: TargetType; id: string; timelineId: string | null; title: string | null; ownerId?: string | null };
  /** What caused it, unique per recipient: a replay adds nothing, an undo finds it. */
  sourceKey: string;
  /** Null for what the system did (a video finished processing). */
  actorId: string | null;
  occurredAt: Date;
}

/**
 * Where a change of someone's notifications goes, written in the change's transaction: the
 * recipient's sockets and their browsers' push are told once it has committed.
 */
export interface NotificationOutlet {
  /** An entry was created or grew; `push` when the person wants this type pushed. */
  grew(manager: EntityManager, recipientId: string, notificationId: string, push: boolean, groupKey: string): Promise<void>;
  /** Only push is wanted for this type: nothing is kept in the list, so the entry to show travels with the change. */
  pushOnly(manager: EntityManager, recipientId: string, entry: NotificationEntry, groupKey: string): Promise<void>;
  /** The unread count changed otherwise (read, taken back, dropped). */
  countChanged(manager: EntityManager, recipientId: string): Promise<void>;
}

/**
 * Turns activities into grouped notifications and takes them back. Runs inside the transaction
 * of the event that caused the change (with its inbox entry), so an event changes notifications
 * exactly once.
 */
export class Notifier {
  private readonly preferences = new PreferenceRepository();

  constructor(private readonly outlet: NotificationOutlet) {}

  async add(manager: EntityManager, activity: Activity): Promise<void> {
    const { recipientId, kind, target } = activity;
    // Never for one's own actions.
    if (activity.actorId !== null && activity.actorId === recipientId) return;
    const channels = await this.preferences.channels(manager, recipientId, TYPE_OF[kind]);
    if (!channels.inApp && !channels.push) return;
    const groupKey = groupKeyOf(kind, target.type, target.id);
    const link = linkOf(target);

    // One writer per recipient and group at a time, so replicas never open two entries for one group.
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${recipientId}:${groupKey}`]);
    const known = await manager.query('SELECT 1 FROM notification_activities WHERE recipient_id = $1 AND source_key = $2', [recipientId, activity.sourceKey]);
    if (known.length > 0) return;

    if (!channels.inApp) {
      await this.outlet.pushOnly(manager, recipientId, await this.standalone(manager, activity, link), groupKey);
      return;
    }

    const windowStart = new Date(activity.occurredAt.getTime() - GROUP_WINDOW_MS);
    const [open] = (await manager.query(
      'SELECT id FROM notifications WHERE recipient_id = $1 AND group_key = $2 AND created_at > $3 ORDER BY created_at DESC LIMIT 1',
      [recipientId, groupKey, windowStart],
    )) as Array<{ id: string }>;
    const notificationId = open?.id ?? randomUUID();
    if (!open) {
      await manager.query(
        `INSERT INTO notifications (id, recipient_id, kind, group_key, target_type, target_id, timeline_id, target_title, link, count, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $10)`,
        [notificationId, recipientId, kind, groupKey, target.type, target.id, target.timelineId, target.title?.slice(0, 255) ?? null, link.slice(0, 300), activity.occurredAt],
      );
    }
    await manager.query(
      'INSERT INTO notification_activities (id, notification_id, recipient_id, source_key, actor_id, occurred_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [randomUUID(), notificationId, recipientId, activity.sourceKey, activity.actorId, activity.occurredAt],
    );
    // A grown entry is unread again and moves to the top; its title follows the latest activity.
    await manager.query(
      `UPDATE notifications SET count = ${COUNT_ACTORS}, updated_at = GREATEST(updated_at, $2), read_at = NULL,
              target_title = COALESCE($3, target_title)
        WHERE id = $1`,
      [notificationId, activity.occurredAt, target.title?.slice(0, 255) ?? null],
    );
    await this.outlet.grew(manager, recipientId, notificationId, channels.push, groupKey);
  }

  /**
   * An undo (unlike, unfollow, a deleted comment): the activities caused by `sourceKey` leave
   * the entries that are still unread, and an entry left with nobody goes. Read entries stay as
   * they were read.
   */
  async retract(manager: EntityManager, sourceKey: string, recipientId?: string): Promise<void> {
    // A DELETE answers [returned rows, affected count].
    const [removed] = (await manager.query(
      `DELETE FROM notification_activities a USING notifications n
        WHERE a.notification_id = n.id AND n.read_at IS NULL AND a.source_key = $1 ${recipientId ? 'AND a.recipient_id = $2' : ''}
        RETURNING a.notification_id, a.recipient_id`,
      recipientId ? [sourceKey, recipientId] : [sourceKey],
    )) as [Array<{ notification_id: string; recipient_id: string }>, number];
    if (removed.length === 0) return;
    const ids = [...new Set(removed.map((row) => row.notification_id))];
    await manager.query(`UPDATE notifications SET count = ${COUNT_ACTORS.replace('$1', 'notifications.id')} WHERE id = ANY($1)`, [ids]);
    await manager.query('DELETE FROM notifications WHERE id = ANY($1) AND count = 0', [ids]);
    await this.announceCounts(manager, removed.map((row) => row.recipient_id));
  }

  /**
   * Drops notifications about a timeline, read or not: for everyone (it was deleted), for the
   * people listed, or for everyone except the people listed (it became private).
   */
  async dropAboutTimeline(manager: EntityManager, timelineId: string, who: { only: string[] } | { except: string[] } | 'everyone'): Promise<void> {
    const filter = who === 'everyone' ? '' : 'only' in who ? 'AND recipient_id = ANY($2)' : 'AND NOT (recipient_id = ANY($2))';
    const params = who === 'everyone' ? [timelineId] : [timelineId, 'only' in who ? who.only : who.except];
    await this.drop(manager, `timeline_id = $1 ${filter}`, params);
  }

  /** Drops every notification about a target that no longer exists (a deleted post or video). */
  async dropAboutTarget(manager: EntityManager, targetType: TargetType, targetId: string): Promise<void> {
    await this.drop(manager, 'target_type = $1 AND target_id = $2', [targetType, targetId]);
  }

  private async drop(manager: EntityManager, where: string, params: unknown[]): Promise<void> {
    const [gone] = (await manager.query(`DELETE FROM notifications WHERE ${where} RETURNING id, recipient_id`, params)) as [Array<{ id: string; recipient_id: string }>, number];
    if (gone.length === 0) return;
    await manager.query('DELETE FROM notification_activities WHERE notification_id = ANY($1)', [gone.map((row) => row.id)]);
    await this.announceCounts(manager, gone.map((row) => row.recipient_id));
  }

  private async announceCounts(manager: EntityManager, recipients: string[]): Promise<void> {
    for (const recipientId of new Set(recipients)) await this.outlet.countChanged(manager, recipientId);
  }

  /** The entry a single activity would make, for a push when the list is turned off. */
  private async standalone(manager: EntityManager, activity: Activity, link: string): Promise<NotificationEntry> {
    const [actor] = activity.actorId
      ? ((await manager.query('SELECT id, username, display_name, avatar FROM users WHERE id = $1', [activity.actorId])) as Array<{ id: string; username: string; display_name: string; avatar: string | null }>)
      : [];
    const actors = activity.actorId
      ? [{ id: activity.actorId, username: actor?.username ?? '', displayName: actor?.display_name || actor?.username || UNKNOWN_PERSON, avatar: actor?.avatar ?? null }]
      : [];
    const at = activity.occurredAt.toISOString();
    const { target } = activity;
    return {
      id: randomUUID(),
      kind: activity.kind,
      count: actors.length,
      actors,
      read: false,
      link,
      target: { type: target.type, id: target.id, timelineId: target.timelineId, title: target.title },
      text: describe(activity.kind, { actorNames: actors.map((a) => a.displayName), count: actors.length, targetType: target.type, title: target.title }),
      createdAt: at,
      updatedAt: at,
    };
  }
}

// Distinct people; activities without a person (system ones) count once each.
const COUNT_ACTORS = '(SELECT count(DISTINCT COALESCE(a.actor_id::text, a.id::text))::int FROM notification_activities a WHERE a.notification_id = $1)';
