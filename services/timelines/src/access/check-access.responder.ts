import { type EventBus, serveRpc, type Subscription } from '@timeliner/platform';
import { TimelinesRpc } from '@timeliner/proto';
import { protoRole, protoVisibility } from '../proto-enums.js';
import type { TimelineAccess } from './timeline-access.service.js';

/**
 * Answers "may this user see (or edit) this timeline?" for the gateway (before a browser
 * subscribes to a timeline's realtime messages) and for other services (comments, media), from
 * the same policy as the HTTP routes. Queue group `timelines`: replicas share the requests.
 */
export function serveCheckAccess(bus: EventBus, access: TimelineAccess): Promise<Subscription> {
  return serveRpc(bus, TimelinesRpc.CheckAccess, 'timelines', async ({ timelineId, userId, inContext }) => {
    const check = await access.check(timelineId, userId || undefined, { inContext });
    return {
      canView: check.canView,
      canEdit: check.canEdit,
      role: protoRole(check.role),
      ownerId: check.ownerId,
      ...(check.visibility ? { visibility: protoVisibility(check.visibility), title: check.title } : {}),
      removedByModerators: check.removedByModerators ?? false,
    };
  });
}
