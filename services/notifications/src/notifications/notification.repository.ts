import { type CursorKey, decodeCursor, encodeCursor } from '@timeliner/platform';
import type { NotificationActor, NotificationEntry } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { describe, type NotificationKind, type TargetType } from './notification-kinds.js';

/** Names shown until the auth service's events have told this service about a person. */
export const UNKNOWN_PERSON = 'Someone';

interface EntryRow {
  id: string;
  kind: string;
  count: number;
  read_at: Date | null;
  link: string;
  target_type: string;
  target_id: string;
  timeline_id: string | null;
  target_title: string | null;
  created_at: Date;
  updated_at: Date;
  cursor_at: string;
  actors: Array<{ id: string; username: string | null; display_name: string | null; avatar: string | null }> | null;
}

export interface EntryPage {
  items: NotificationEntry[];
  nextCursor?: string;
}

// The latest three distinct people of each entry, with what the users read model knows of them.
const ENTRY_SELECT = `
  SELECT n.id, n.kind, n.count, n.read_at, n.link, n.target_type, n.target_id, n.timeline_id, n.target_title,
         n.created_at, n.updated_at,
         to_char(n.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at,
         (SELECT json_agg(json_build_object('id', p.actor_id, 'username', u.username, 'display_name', u.display_name, 'avatar', u.avatar) ORDER BY p.latest DESC)
            FROM (SELECT a.actor_id, max(a.occurred_at) AS latest
                    FROM notification_activities a
                   WHERE a.notification_id = n.id AND a.actor_id IS NOT NULL
                   GROUP BY a.actor_id
                   ORDER BY latest DESC
                   LIMIT 3) p
            LEFT JOIN users u ON u.id = p.actor_id) AS actors
    FROM notifications n`;

function toActor(row: NonNullable<EntryRow['actors']>[number]): NotificationActor {
  return { id: row.id, username: row.username ?? '', displayName: row.display_name || row.username || UNKNOWN_PERSON, avatar: row.avatar ?? null };
}

export function toEntry(row: EntryRow): NotificationEntry {
  const actors = (row.actors ?? []).map(toActor);
  return {
    id: row.id,
    kind: row.kind,
    count: row.count,
    actors,
    read: row.read_at !== null,
    link: row.link,
    target: { type: row.target_type, id: row.target_id, timelineId: row.timeline_id, title: row.target_title },
    text: describe(row.kind as NotificationKind, {
      actorNames: actors.map((a) => a.displayName),
      count: row.count,
      targetType: row.target_type as TargetType,
      title: row.target_title,
    }),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** Reads of a person's notifications; every query is scoped to its recipient. */
export class NotificationRepository {
  async entry(manager: EntityManager, recipientId: string, id: string): Promise<NotificationEntry | null> {
    const rows: EntryRow[] = await manager.query(`${ENTRY_SELECT} WHERE n.recipient_id = $1 AND n.id = $2`, [recipientId, id]);
    return rows[0] ? toEntry(rows[0]) : null;
  }

  /** An entry and its recipient's unread count, in one round trip (the live message carries both). */
  async entryWithUnreadCount(manager: EntityManager, recipientId: string, id: string): Promise<{ entry: NotificationEntry; unreadCount: number } | null> {
    const rows: Array<EntryRow & { unread_count: number }> = await manager.query(
      `SELECT e.*, (SELECT count(*)::int FROM notifications u WHERE u.recipient_id = $1 AND u.read_at IS NULL) AS unread_count
         FROM (${ENTRY_SELECT} WHERE n.recipient_id = $1 AND n.id = $2) e`,
      [recipientId, id],
    );
    return rows[0] ? { entry: toEntry(rows[0]), unreadCount: rows[0].unread_count } : null;
  }

  /** Newest activity first; the cursor is the last entry's (updatedAt, id). */
  async page(manager: EntityManager, recipientId: string, limit: number, cursor?: string): Promise<EntryPage> {
    const params: unknown[] = [recipientId, limit + 1];
    let after = '';
    if (cursor !== undefined) {
      const [at, id] = decodeCursor(cursor, ['timestamp', 'uuid']) as [string, string];
      params.push(at, id);
      after = 'AND (n.updated_at, n.id) < ($3::timestamptz, $4::uuid)';
    }
    const rows: EntryRow[] = await manager.query(
      `${ENTRY_SELECT} WHERE n.recipient_id = $1 ${after} ORDER BY n.updated_at DESC, n.id DESC LIMIT $2`,
      params,
    );
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    const key: CursorKey | undefined = rows.length > limit && last ? [last.cursor_at, last.id] : undefined;
    return { items: items.map(toEntry), ...(key ? { nextCursor: encodeCursor(key) } : {}) };
  }

  async unreadCount(manager: EntityManager, recipientId: string): Promise<number> {
    const [row] = await manager.query('SELECT count(*)::int AS count FROM notifications WHERE recipient_id = $1 AND read_at IS NULL', [recipientId]);
    return (row as { count: number }).count;
  }

  /** False when the person has no such notification (someone else's is not theirs to touch). */
  async markRead(manager: EntityManager, recipientId: string, id: string): Promise<boolean> {
    const [, affected] = await manager.query(
      'UPDATE notifications SET read_at = COALESCE(read_at, now()) WHERE recipient_id = $1 AND id = $2',
      [recipientId, id],
    );
    return (affected as number) > 0;
  }

  /** How many were unread. */
  async markAllRead(manager: EntityManager, recipientId: string): Promise<number> {
    const [, affected] = await manager.query('UPDATE notifications SET read_at = now() WHERE recipient_id = $1 AND read_at IS NULL', [recipientId]);
    return affected as number;
  }
}
