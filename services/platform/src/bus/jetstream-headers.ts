import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import type { EventMeta } from './event-bus.port.js';

/**
 * Event metadata travels in NATS headers, never in the payload (see proto/README.md), so a
 * consumer in any language reads the same names.
 */
export const MetaHeader = {
  id: 'Nats-Msg-Id',
  type: 'Tl-Event-Type',
  version: 'Tl-Event-Version',
  occurredAt: 'Tl-Occurred-At',
  actorUserId: 'Tl-Actor',
  requestId: 'Tl-Request-Id',
  rpcError: 'Tl-Rpc-Error',
  /** Set on a replayed dead letter, whose Nats-Msg-Id must differ from the event's own id. */
  eventId: 'Tl-Event-Id',
} as const;

// Header values are single lines of printable text; a request id copied from an HTTP header must
// not be able to break the frame.
const headerValue = (value: string): string => value.replace(/[^\x20-\x7e]/g, '').slice(0, 256);

export function metaToHeaders(meta: EventMeta, headers: MsgHdrs = natsHeaders()): MsgHdrs {
  headers.set(MetaHeader.id, headerValue(meta.id));
  headers.set(MetaHeader.type, headerValue(meta.type));
  headers.set(MetaHeader.version, String(meta.version));
  headers.set(MetaHeader.occurredAt, headerValue(meta.occurredAt));
  if (meta.actorUserId) headers.set(MetaHeader.actorUserId, headerValue(meta.actorUserId));
  if (meta.requestId) headers.set(MetaHeader.requestId, headerValue(meta.requestId));
  return headers;
}

/** Reads the metadata back; null when a message lacks what every event must carry. */
export function metaFromHeaders(headers: MsgHdrs | undefined): EventMeta | null {
  const id = headers?.get(MetaHeader.eventId) || headers?.get(MetaHeader.id);
  const type = headers?.get(MetaHeader.type);
  const version = Number(headers?.get(MetaHeader.version));
  const occurredAt = headers?.get(MetaHeader.occurredAt);
  if (!headers || !id || !type || !Number.isInteger(version) || !occurredAt) return null;
  const meta: EventMeta = { id, type, version, occurredAt };
  const actorUserId = headers.get(MetaHeader.actorUserId);
  const requestId = headers.get(MetaHeader.requestId);
  if (actorUserId) meta.actorUserId = actorUserId;
  if (requestId) meta.requestId = requestId;
  return meta;
}

export function requestIdHeaders(requestId: string | undefined): MsgHdrs | undefined {
  if (!requestId) return undefined;
  const headers = natsHeaders();
  headers.set(MetaHeader.requestId, headerValue(requestId));
  return headers;
}
