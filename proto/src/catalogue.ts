/**
 * The NATS subject catalogue: every event and request/reply message that crosses a process
 * boundary, with its version. Producers and consumers refer to these constants, never to subject
 * strings, so a call site reads `AuthEvents.UserRegistered`.
 *
 * Changing a payload incompatibly means a new version (`defineEvent(type, 2, ...)`) published
 * beside the old one until every consumer has moved; `buf breaking` guards the schemas.
 */
import { SessionRevokedSchema, UserRegisteredSchema, UserUpdatedSchema } from './gen/timeliner/auth/v1/events_pb.js';
import { VerifySessionReplySchema, VerifySessionRequestSchema } from './gen/timeliner/auth/v1/session_pb.js';
import { defineEvent, defineRpc } from './define.js';

export const AuthEvents = {
  UserRegistered: defineEvent('auth.user.registered', 1, UserRegisteredSchema),
  UserUpdated: defineEvent('auth.user.updated', 1, UserUpdatedSchema),
  SessionRevoked: defineEvent('auth.session.revoked', 1, SessionRevokedSchema),
} as const;

export const AuthRpc = {
  /** The gateway resolves a bearer token (by its SHA-256 hex) to a session. Queue group `auth`. */
  VerifySession: defineRpc('auth.session.verify', 1, VerifySessionRequestSchema, VerifySessionReplySchema),
} as const;
