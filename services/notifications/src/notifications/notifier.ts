import { randomUUID } from 'node:crypto';
import type { NotificationEntry } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { PreferenceRepository } from '../preferences/preference.repository.js';
import { GROUP_WINDOW_MS, GROUPED_BY_TIMELINE, groupKeyOf, linkOf, type NotificationKind, type TargetType, TOLD_ONCE_A_DAY, TOLD_ONCE_WINDOW_MS, TYPE_OF } from './notification-kinds.js';
import { entryOf, UNKNOWN_PERSON } from './notification.repository.js';
import { ownerOf, outOfReach } from './content-access.js';
import { silencedFor } from './person-filter-gate.js';

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
  /** The words of what was said (a comment, a post), for the recipient's muted words; the title counts too. */
  text?: string;
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
  constructor(
    private readonly outlet: NotificationOutlet,
    private readonly preferences: PreferenceRepository,
  ) {}

  async add(manager: EntityManager, activity: Activity): Promise<void> {
    const { recipientId, kind, target } = activity;
    // Never for one's own actions.
    if (activity.actorId !== null && activity.actorId === recipientId) return;
    // Nor from someone blocked either way or muted, nor with a muted word (person-filter-gate.ts).
    if (await silencedFor(manager, recipientId, activity.actorId, [activity.text, target.title].filter(Boolean).join(' '))) return;
    // Nor from a suspended person, nor about what the recipient may no longer see (content-access.ts).
    const ownerId = await ownerOf(manager, target.ownerId, target.timelineId);
    if (await outOfReach(manager, { recipientId, kind, actorId: activity.actorId, ownerId, target })) return;
    const channels = kind === 'moderation' ? { inApp: true, push: true } : await this.preferences.channels(manager, recipientId, TYPE_OF[kind]);
    if (!channels.inApp && !channels.push) return;
    const groupKey = groupKeyOf(kind, target);
    const link = linkOf(target);

    // One writer per recipient and group at a time, so replicas never open two entries for one group.
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${recipientId}:${groupKey}`]);
    const known = await manager.query('SELECT 1 FROM notification_activities WHERE recipient_id = $1 AND source_key = $2', [recipientId, activity.sourceKey]);
    if (known.length > 0) return;
    if (!(await this.firstToday(manager, activity, groupKey))) return;

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
        `INSERT INTO notifications (id, recipient_id, kind, group_key, target_type, target_id, timeline_id, target_title, link, count, created_at, updated_at, owner_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $10, $11)`,
        [notificationId, recipientId, kind, groupKey, target.type, target.id, target.timelineId, target.title?.slice(0, 255) ?? null, link.slice(0, 300), activity.occurredAt, ownerId],
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
   * False when the same person's same kind of activity on the same thing was told to this person
   * within the last 24 hours (TOLD_ONCE_A_DAY); otherwise records this telling. One statement,
   * so concurrent events, on any replica, let exactly one through: the second waits for the
   * first's row and then finds it too recent. An activity older than the last telling is not told.
   */
  private async firstToday(manager: EntityManager, activity: Activity, groupKey: string): Promise<boolean> {
    if (!TOLD_ONCE_A_DAY.has(activity.kind) || activity.actorId === null) return true;
    const rows = (await manager.query(
      `INSERT INTO told_once_a_day (recipient_id, actor_id, subject, told_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (recipient_id, actor_id, subject) DO UPDATE SET told_at = EXCLUDED.told_at
        WHERE told_once_a_day.told_at <= EXCLUDED.told_at - make_interval(secs => $5)
       RETURNING 1`,
      [activity.recipientId, activity.actorId, groupKey.slice(0, 100), activity.occurredAt, TOLD_ONCE_WINDOW_MS / 1000],
    )) as unknown[];
    return rows.length > 0;
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
   * A block: what either of the two was told of the other's actions goes, read or not, and an
   * entry left with nobody goes.
   */
  async forgetBetween(manager: EntityManager, a: string, b: string): Promise<void> {
    const [removed] = (await manager.query(
      `DELETE FROM notification_activities WHERE (recipient_id = $1 AND actor_id = $2) OR (recipient_id = $2 AND actor_id = $1) RETURNING notification_id, recipient_id`,
      [a, b],
    )) as [Array<{ notification_id: string; recipient_id: string }>, number];
    if (removed.length === 0) return;
    const ids = [...new Set(removed.map((row) => row.notification_id))];
    await manager.query(`UPDATE notifications SET count = ${COUNT_ACTORS.replace('$1', 'notifications.id')} WHERE id = ANY($1)`, [ids]);
    await manager.query('DELETE FROM notifications WHERE id = ANY($1) AND count = 0', [ids]);
    await this.announceCounts(manager, removed.map((row) => row.recipient_id));
  }

  /**
   * A suspension: what anyone was told of the person's actions goes, read or not, and an entry
   * left with nobody goes; so does what others were told about the person's content.
   */
  async forgetActor(manager: EntityManager, actorId: string): Promise<void> {
    await this.forgetActivities(manager, 'actor_id = $1 AND recipient_id <> $1', [actorId]);
    await this.dropWhere(manager, 'owner_id = $1 AND recipient_id <> $1', [actorId]);
  }

  /** A hidden comment: what anyone was told of it goes, read or not, and an entry left with nobody goes. */
  async forgetSource(manager: EntityManager, sourceKey: string): Promise<void> {
    await this.forgetActivities(manager, 'source_key = $1', [sourceKey]);
  }

  private async forgetActivities(manager: EntityManager, where: string, params: unknown[]): Promise<void> {
    const [removed] = (await manager.query(`DELETE FROM notification_activities WHERE ${where} RETURNING notification_id, recipient_id`, params)) as [
      Array<{ notification_id: string; recipient_id: string }>,
      number,
    ];
    if (removed.length === 0) return;
    const ids = [...new Set(removed.map((row) => row.notification_id))];
    await manager.query(`UPDATE notifications SET count = ${COUNT_ACTORS.replace('$1', 'notifications.id')} WHERE id = ANY($1)`, [ids]);
    await manager.query('DELETE FROM notifications WHERE id = ANY($1) AND count = 0', [ids]);
    await this.announceCounts(manager, removed.map((row) => row.recipient_id));
  }

  /** Drops the notifications (read or not) a where clause over `notifications` picks (content-access.ts). */
  async dropWhere(manager: EntityManager, where: string, params: unknown[]): Promise<void> {
    await this.drop(manager, where, params);
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

  /**
   * Drops every notification about a target that no longer exists (a deleted post or video). A
   * deleted video leaves the entries grouping its timeline's processed videos (read or not) as
   * one video fewer, gone when it was their last; one that led to it leads to another of them.
   */
  async dropAboutTarget(manager: EntityManager, targetType: TargetType, targetId: string): Promise<void> {
    if (targetType === 'video') {
      const kinds = [...GROUPED_BY_TIMELINE];
      const [removed] = (await manager.query(
        `DELETE FROM notification_activities WHERE source_key = ANY($1) RETURNING notification_id, recipient_id`,
        [kinds.map((kind) => `${kind}:${targetId}`)],
      )) as [Array<{ notification_id: string; recipient_id: string }>, number];
      const ids = [...new Set(removed.map((row) => row.notification_id))];
      if (ids.length > 0) {
        await manager.query(`UPDATE notifications SET count = ${COUNT_ACTORS.replace('$1', 'notifications.id')} WHERE id = ANY($1)`, [ids]);
        await manager.query('DELETE FROM notifications WHERE id = ANY($1) AND count = 0', [ids]);
        await manager.query(
          `UPDATE notifications n SET target_id = next.video_id::uuid, link = '/watch/' || n.timeline_id || '?video=' || next.video_id
             FROM (SELECT DISTINCT ON (a.notification_id) a.notification_id, split_part(a.source_key, ':', 2) AS video_id
                     FROM notification_activities a WHERE a.notification_id = ANY($1) ORDER BY a.notification_id, a.occurred_at, a.id) next
            WHERE n.id = next.notification_id AND n.target_id = $2 AND n.timeline_id IS NOT NULL`,
          [ids, targetId],
        );
        await this.announceCounts(manager, removed.map((row) => row.recipient_id));
      }
      await this.drop(manager, 'target_type = $1 AND target_id = $2 AND NOT (kind = ANY($3))', [targetType, targetId, kinds]);
      return;
    }
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
    const [names] = (await manager.query(
      `SELECT (SELECT nullif(original_name, '') FROM videos WHERE $1::text = 'video' AND id = $2) AS video_name, (SELECT nullif(title, '') FROM timelines WHERE id = $3) AS timeline_title`,
      [target.type, target.id, target.timelineId],
    )) as Array<{ video_name: string | null; timeline_title: string | null }>;
    const title = target.type === 'video' ? (names?.video_name ?? (GROUPED_BY_TIMELINE.has(activity.kind) ? target.title : null)) : target.title;
    return entryOf({
      id: randomUUID(),
      recipientId: activity.recipientId,
      kind: activity.kind,
      count: Math.max(actors.length, 1),
      actors,
      read: false,
      link,
      target: { type: target.type, id: target.id, timelineId: target.timelineId, title },
      timelineTitle: names?.timeline_title ?? null,
      createdAt: at,
      updatedAt: at,
    });
  }
}

// Distinct people; activities without a person (system ones) count once each.
const COUNT_ACTORS = '(SELECT count(DISTINCT COALESCE(a.actor_id::text, a.id::text))::int FROM notification_activities a WHERE a.notification_id = $1)';
