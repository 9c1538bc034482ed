import type { RawData } from 'ws';

/** What a browser may send on `/ws`. */
export type ClientMessage =
  | { type: 'auth'; token: string }
  | { type: 'subscribe'; topic: string }
  | { type: 'unsubscribe'; topic: string }
  | { type: 'ping' };

export type ParsedClientMessage =
  | { ok: true; message: ClientMessage }
  /** fatal: the socket is closed (the peer is not speaking the protocol); otherwise answered with an error. */
  | { ok: false; fatal: boolean; reason: string };

const fatal = (reason: string): ParsedClientMessage => ({ ok: false, fatal: true, reason });

export function parseClientMessage(data: RawData, isBinary: boolean): ParsedClientMessage {
  if (isBinary) return fatal('Binary messages are not accepted');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'));
  } catch {
    return fatal('Malformed message');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fatal('Malformed message');
  const record = value as Record<string, unknown>;
  switch (record.type) {
    case 'auth':
      return typeof record.token === 'string' ? { ok: true, message: { type: 'auth', token: record.token } } : fatal('Malformed auth message');
    case 'subscribe':
    case 'unsubscribe':
      return typeof record.topic === 'string'
        ? { ok: true, message: { type: record.type, topic: record.topic } }
        : { ok: false, fatal: false, reason: 'Missing topic' };
    case 'ping':
      return { ok: true, message: { type: 'ping' } };
    default:
      // A newer client may know more types than this gateway: answer, do not disconnect.
      return { ok: false, fatal: false, reason: 'Unknown message type' };
  }
}
