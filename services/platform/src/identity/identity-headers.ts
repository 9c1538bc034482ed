import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verified identity travels from the gateway to services in internal headers. The gateway strips
 * every `x-tl-*` header a client sends, resolves the bearer token, and signs what it adds, so a
 * service trusts an identity only if the signature checks out — a request that reached a service
 * some other way cannot claim to be anyone.
 *
 * The signature covers the user, session, client address, request id, method, path and a
 * timestamp, so a captured header set cannot be replayed later or onto another route.
 */
export const IDENTITY_HEADERS = {
  userId: 'x-tl-user-id',
  sessionId: 'x-tl-session-id',
  clientIp: 'x-tl-client-ip',
  timestamp: 'x-tl-identity-ts',
  signature: 'x-tl-identity-sig',
} as const;

export const INTERNAL_HEADER_PREFIX = 'x-tl-';

/** Signed headers older than this are refused (allows for clock skew between pods). */
export const MAX_IDENTITY_AGE_MS = 60_000;

export interface Identity {
  userId?: string;
  sessionId?: string;
  clientIp: string;
}

interface SignedFields extends Identity {
  requestId: string;
  method: string;
  path: string;
  timestamp: number;
}

/**
 * The identity key: one string, or during a rotation the key the gateway signs with and the other
 * keys services still accept (the next key before every gateway signs with it, then the previous
 * one until every gateway has stopped signing with it), so no request crossing an old and a new
 * pod is refused.
 */
export interface IdentityKeyring {
  current: string;
  accepted: readonly string[];
}
export type IdentitySecret = string | IdentityKeyring;

/** The key new signatures are made with. */
export const signingKey = (secret: IdentitySecret): string => (typeof secret === 'string' ? secret : secret.current);

/** Every key a signature may have been made with, the signing key first. */
export const acceptedKeys = (secret: IdentitySecret): readonly string[] => (typeof secret === 'string' ? [secret] : [secret.current, ...secret.accepted]);

/** The keyring of INTERNAL_SECRET and INTERNAL_SECRET_ACCEPTED (comma-separated); the plain key when there are no others. */
export function identityKeyring(current: string, accepted: string | undefined): IdentitySecret {
  const others = (accepted ?? '').split(',').map((key) => key.trim()).filter((key) => key && key !== current);
  return others.length > 0 ? { current, accepted: others } : current;
}

const canonical = (f: SignedFields): string =>
  [f.userId ?? '', f.sessionId ?? '', f.clientIp, f.requestId, f.method.toUpperCase(), f.path, String(f.timestamp)].join('\n');

const mac = (secret: string, fields: SignedFields): string =>
  createHmac('sha256', secret).update(canonical(fields)).digest('base64url');

/** Path without the query string: the query may be re-encoded by proxies. */
const pathOf = (url: string): string => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

export function signIdentity(
  secret: string,
  identity: Identity,
  request: { requestId: string; method: string; url: string },
  now = Date.now(),
): Record<string, string> {
  const fields: SignedFields = { ...identity, requestId: request.requestId, method: request.method, path: pathOf(request.url), timestamp: now };
  const headers: Record<string, string> = {
    [IDENTITY_HEADERS.clientIp]: identity.clientIp,
    [IDENTITY_HEADERS.timestamp]: String(now),
    [IDENTITY_HEADERS.signature]: mac(secret, fields),
  };
  if (identity.userId) headers[IDENTITY_HEADERS.userId] = identity.userId;
  if (identity.sessionId) headers[IDENTITY_HEADERS.sessionId] = identity.sessionId;
  return headers;
}

export type IdentityCheck =
  | { ok: true; identity: Identity }
  | { ok: false; reason: 'missing' | 'bad-signature' | 'expired' };

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export function verifyIdentity(
  secret: IdentitySecret,
  headers: Record<string, string | string[] | undefined>,
  request: { requestId: string; method: string; url: string },
  now = Date.now(),
): IdentityCheck {
  const signature = header(headers, IDENTITY_HEADERS.signature);
  const timestamp = Number(header(headers, IDENTITY_HEADERS.timestamp));
  const clientIp = header(headers, IDENTITY_HEADERS.clientIp);
  if (!signature || !clientIp || !Number.isFinite(timestamp)) return { ok: false, reason: 'missing' };
  if (Math.abs(now - timestamp) > MAX_IDENTITY_AGE_MS) return { ok: false, reason: 'expired' };
  const identity: Identity = { clientIp };
  const userId = header(headers, IDENTITY_HEADERS.userId);
  const sessionId = header(headers, IDENTITY_HEADERS.sessionId);
  if (userId) identity.userId = userId;
  if (sessionId) identity.sessionId = sessionId;
  const fields = { ...identity, requestId: request.requestId, method: request.method, path: pathOf(request.url), timestamp };
  const given = Buffer.from(signature);
  for (const key of acceptedKeys(secret)) {
    const expected = Buffer.from(mac(key, fields));
    if (expected.length === given.length && timingSafeEqual(expected, given)) return { ok: true, identity };
  }
  return { ok: false, reason: 'bad-signature' };
}

/** Removes every internal header a client may have sent. */
export function stripInternalHeaders(headers: Record<string, unknown>): void {
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase().startsWith(INTERNAL_HEADER_PREFIX)) delete headers[name];
  }
}
