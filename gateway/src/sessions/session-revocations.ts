import { decodeEvent, type EventBus, type Logger, type Subscription } from '@timeliner/platform';
import { AuthEvents } from '@timeliner/proto';
import type { SessionResolver } from './session-resolver.js';

/**
 * Every gateway replica drops a revoked session at once: it observes `AuthEvents.SessionRevoked`
 * with the bus's live fan-out (`subscribe`), not as a durable consumer group, because each
 * replica holds its own cache and all of them must hear it.
 */
export function watchRevocations(bus: EventBus, sessions: SessionResolver, logger: Logger): Promise<Subscription> {
  return bus.subscribe(AuthEvents.SessionRevoked.subject, (message) => {
    let event;
    try {
      event = decodeEvent(AuthEvents.SessionRevoked, message);
    } catch (error) {
      logger.warn({ err: error, subject: message.subject }, 'unreadable session revocation dropped');
      return;
    }
    sessions.revoke({
      ...(event.tokenHash ? { tokenHash: event.tokenHash } : {}),
      ...(event.sessionId ? { sessionId: event.sessionId } : {}),
      ...(event.userId ? { userId: event.userId } : {}),
    });
  });
}
