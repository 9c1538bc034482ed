import { randomUUID } from 'node:crypto';
import { Realtime, type RealtimeMessage } from '@timeliner/proto';
import type { EventBus } from './event-bus.port.js';

/**
 * Sends a browser-bound message to whoever watches `subject` (`Realtime.timelineSubject(id)`,
 * `Realtime.userSubject(id)`); the gateway forwards the JSON to the sockets subscribed to it.
 */
export function broadcastRealtime(
  bus: EventBus,
  subject: string,
  message: RealtimeMessage,
  context: { actorUserId?: string; requestId?: string } = {},
): Promise<void> {
  return bus.broadcast({
    subject,
    meta: { id: randomUUID(), type: `realtime.${message.type}`, version: 1, occurredAt: new Date().toISOString(), ...context },
    data: Realtime.encode(message),
  });
}
