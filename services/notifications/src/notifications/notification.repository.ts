import { type CursorKey, decodeCursor, encodeCursor, type Page } from '@timeliner/platform';
import type { NotificationActor, NotificationEntry } from '@timeliner/proto';
import type { DataSource, EntityManager } from 'typeorm';
import { describe, GROUPED_BY_TIMELINE, type NotificationKind, type TargetType } from './notification-kinds.js';

/** Names shown until the auth service's events have told this service about a person. */
export const UNKNOWN_PERSON = 'Someone';

interface EntryRow {
  id: string;
  recipient_id: string;
  kind: string;
  count: number;
  read_at: Date | null;
  link: string;
  target_type: string;
  target_id: string;
  timeline_id: string | null;
  target_title: string | null;
  /** The video's file name (videos read model), for a video target. */
  video_name: string | null;
  /** The current name of the timeline the target is on (timelines read model). */
  timeline_title: string | null;
  created_at: Date;
  updated_at: Date;
  cursor_at: string;
  actors: Array<{ id: string; username: string | null; display_name: string | null; avatar: string | null }> | null;
}

export type EntryPage = Page<NotificationEntry>;

// The latest three distinct people of each entry, with what the users read model knows of them;
// the names of the video and the timeline it is about, as they are now.
const ENTRY_SELECT = `
  SELECT n.id, n.recipient_id, n.kind, n.count, n.read_at, n.link, n.target_type, n.target_id, n.timeline_id, n.target_title,
         n.created_at, n.updated_at,
         (SELECT nullif(v.original_name, '') FROM videos v WHERE n.target_type = 'video' AND v.id = n.target_id) AS video_name,
         (SELECT nullif(t.title, '') FROM timelines t WHERE t.id = n.timeline_id) AS timeline_title,
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

/**
 * The name a notification shows for its target: for a video, its file name (never the timeline's,
 * which likes and comments once stored as the title); for the processing of videos, the file
 * named when it happened; otherwise the stored title (a timeline's, an export's).
 */
function targetTitle(kind: NotificationKind, row: Pick<EntryRow, 'target_type' | 'target_title' | 'video_name'>): string | null {
  if (row.target_type !== 'video') return row.target_title;
  return row.video_name ?? (GROUPED_BY_TIMELINE.has(kind) ? row.target_title : null);
}

/** An entry as the API and the live messages carry it, under the spec's field names too (type, message, actorId, targetId, targetType, userId). */
export function entryOf(input: {
  id: string;
  recipientId: string;
  kind: NotificationKind;
  count: number;
  actors: NotificationActor[];
  read: boolean;
  link: string;
  target: NotificationEntry['target'];
  timelineTitle: string | null;
  createdAt: string;
  updatedAt: string;
}): NotificationEntry {
  const text = describe(input.kind, {
    actorNames: input.actors.map((a) => a.displayName),
    count: input.count,
    targetType: input.target.type as TargetType,
    title: input.target.title,
    timelineTitle: input.timelineTitle,
  });
  return {
    id: input.id,
    type: input.kind,
    kind: input.kind,
    userId: input.recipientId,
    actorId: input.actors[0]?.id ?? null,
    targetType: input.target.type,
    targetId: input.target.id,
    count: input.count,
    actors: input.actors,
    read: input.read,
    link: input.link,
    target: input.target,
    text,
    message: text,
    createdAt: input.createdAt,
    updatedAt: input.updatedAt,
  };
}

export function toEntry(row: EntryRow): NotificationEntry {
  const kind = row.kind as NotificationKind;
  return entryOf({
    id: row.id,
    recipientId: row.recipient_id,
    kind,
    count: row.count,
    actors: (row.actors ?? []).map(toActor),
    read: row.read_at !== null,
    link: row.link,
    target: { type: row.target_type, id: row.target_id, timelineId: row.timeline_id, title: targetTitle(kind, row) },
    timelineTitle: row.timeline_title,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  });
}

/**
 * Reads and read marks of a person's notifications; every query is scoped to its recipient.
 * Methods that take a `manager` first run in the caller's transaction; the others read on their own.
 */
export class NotificationRepository {
  constructor(private readonly dataSource: DataSource) {}

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
  async page(recipientId: string, limit: number, cursor?: string): Promise<EntryPage> {
    const params: unknown[] = [recipientId, limit + 1];
    let after = '';
    if (cursor !== undefined) {
      const [at, id] = decodeCursor(cursor, ['timestamp', 'uuid']) as [string, string];
      params.push(at, id);
      after = 'AND (n.updated_at, n.id) < ($3::timestamptz, $4::uuid)';
    }
    const rows: EntryRow[] = await this.dataSource.query(
      `${ENTRY_SELECT} WHERE n.recipient_id = $1 ${after} ORDER BY n.updated_at DESC, n.id DESC LIMIT $2`,
      params,
    );
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    const key: CursorKey | undefined = rows.length > limit && last ? [last.cursor_at, last.id] : undefined;
    return { items: items.map(toEntry), ...(key ? { nextCursor: encodeCursor(key) } : {}) };
  }

  /** In `manager`'s transaction when given. */
  async unreadCount(recipientId: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
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
