import { createHash } from 'node:crypto';
import type { NotificationEntry } from '@timeliner/proto';

/** What the service worker receives; kept well under the 4 KB a push message may carry. */
export interface PushPayload {
  title: string;
  body: string;
  /** The page to open on a click. */
  url: string;
  /** The notification's tag: a newer push of the same group replaces the shown one. */
  tag: string;
  notificationId: string;
  kind: string;
  unreadCount: number;
  icon?: string;
  /** The person whose action it tells of (the latest), asked about again before each try (push-recheck.ts). */
  actorId?: string;
  /** The entry is in the recipient's list: a try finds it still there, or sends nothing. */
  listed?: boolean;
}

/** RFC 8291 leaves 4096 bytes minus padding and the record header (~4078) for the plaintext. */
export const MAX_PAYLOAD_BYTES = 3_000;
const MAX_BODY = 300;

/**
 * RFC 8030 Topic for a group: a burst of likes on one timeline is one push that the push service
 * replaces while undelivered. At most 32 characters of the URL-safe base64 alphabet.
 */
export const topicOf = (groupKey: string): string => createHash('sha256').update(groupKey).digest('base64url').slice(0, 32);

/** Likes and follows can wait for a good moment; what someone wrote to you cannot. */
export const urgencyOf = (kind: string): 'low' | 'normal' => (kind === 'like' || kind === 'follow' ? 'low' : 'normal');

export function pushPayload(entry: NotificationEntry, unreadCount: number, groupKey: string, listed = false): string {
  const payload: PushPayload = {
    title: 'Timeliner',
    body: entry.text.length > MAX_BODY ? `${entry.text.slice(0, MAX_BODY - 1)}…` : entry.text,
    url: entry.link,
    tag: topicOf(groupKey),
    notificationId: entry.id,
    kind: entry.kind,
    unreadCount,
    ...(entry.actors[0]?.avatar ? { icon: entry.actors[0].avatar } : {}),
    ...(entry.actorId ? { actorId: entry.actorId } : {}),
    ...(listed ? { listed } : {}),
  };
  let text = JSON.stringify(payload);
  if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) {
    delete payload.icon;
    payload.url = payload.url.slice(0, 300);
    text = JSON.stringify(payload);
  }
  return text;
}
