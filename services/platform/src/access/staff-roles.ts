import { SocialRpc } from '@timeliner/proto';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/event-bus.port.js';
import { requestRpc } from '../bus/rpc.js';
import { isUuid } from '../payload/payload-checks.js';

/**
 * Who is staff (moderator or admin, social's staff_roles): what the timelines and media services
 * ask before showing a signed-in caller something the moderators took out, in context and
 * read-only. Asked only on that rare path, so ordinary reads never cost a request.
 */
export interface StaffRoles {
  /** True for a moderator or an admin. Never rejects: no answer means not staff (fail closed). */
  isStaff(userId: string): Promise<boolean>;
}

/** A short deadline: the page falls back to 404, as for everyone, when social is slow or down. */
export const STAFF_ROLE_TIMEOUT_MS = 500;

/** `SocialRpc.StaffRole` over the bus, no cache (a revoked role takes effect at once). */
export class BusStaffRoles implements StaffRoles {
  constructor(
    private readonly bus: EventBus,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly timeoutMs: number = STAFF_ROLE_TIMEOUT_MS,
  ) {}

  async isStaff(userId: string): Promise<boolean> {
    if (!isUuid(userId)) return false;
    try {
      const reply = await requestRpc(this.bus, SocialRpc.StaffRole, { userId: userId.toLowerCase() }, { timeoutMs: this.timeoutMs });
      return reply.role === 'moderator' || reply.role === 'admin';
    } catch (err) {
      this.logger.warn({ err, userId }, 'staff role check failed; treated as not staff');
      return false;
    }
  }
}
