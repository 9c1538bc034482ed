import { copySuspendedSql } from '@timeliner/platform';
import type { DataSource } from 'typeorm';
import { silencedFor } from '../notifications/person-filter-gate.js';
import type { PushPayload } from './push-payload.js';

/** Whether a queued push is still to be sent, asked again as each try is made (PushSender). */
export type PushRecheck = (recipientId: string, payload: string) => Promise<boolean>;

/**
 * A queued push waits, and a push service that fails is tried again minutes later: by then the
 * recipient may have blocked or muted its actor, the actor may be suspended, or what it told of
 * may have been taken back (hidden, no longer a follower of a private account, a block). Such a
 * push is not sent (issue 28): a listed entry must still be in the recipient's list, and the
 * person who caused it must still be someone the recipient hears from.
 */
export const pushRecheck = (dataSource: DataSource): PushRecheck => async (recipientId, text) => {
  let payload: Partial<PushPayload>;
  try {
    payload = JSON.parse(text) as Partial<PushPayload>;
  } catch {
    return true;
  }
  const manager = dataSource.manager;
  if (payload.listed && payload.notificationId) {
    const rows: unknown[] = await manager.query('SELECT 1 FROM notifications WHERE id = $1 AND recipient_id = $2', [payload.notificationId, recipientId]);
    if (rows.length === 0) return false;
  }
  if (payload.actorId) {
    if (await silencedFor(manager, recipientId, payload.actorId, '')) return false;
    const [row] = (await manager.query(`SELECT ${copySuspendedSql('$1::uuid')} AS suspended`, [payload.actorId])) as Array<{ suspended: boolean }>;
    if (row?.suspended) return false;
  }
  return true;
};
