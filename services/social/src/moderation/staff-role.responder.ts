import { type EventBus, isUuid, serveRpc, type Subscription } from '@timeliner/platform';
import { SocialRpc } from '@timeliner/proto';
import type { DataSource } from 'typeorm';

/**
 * Answers SocialRpc.StaffRole: a person's staff role (staff_roles, granted by the operator), read
 * at each request like the desk's own check, so a revoked role takes effect at once. The timelines
 * and media services ask it only when a signed-in caller opens something the moderators took out.
 * Read only. Queue group `social`.
 */
export function serveStaffRole(bus: EventBus, dataSource: DataSource): Promise<Subscription> {
  return serveRpc(bus, SocialRpc.StaffRole, 'social', async ({ userId }) => {
    if (!isUuid(userId)) return { role: '' };
    const [row] = (await dataSource.query('SELECT role FROM staff_roles WHERE user_id = $1', [userId.toLowerCase()])) as Array<{ role: string }>;
    return { role: row?.role ?? '' };
  });
}
