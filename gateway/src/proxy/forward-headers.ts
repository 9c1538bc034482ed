import type { IncomingHttpHeaders } from 'node:http';
import { INTERNAL_HEADER_PREFIX, REQUEST_ID_HEADER } from '@timeliner/platform';

// Hop-by-hop headers describe one connection, not the message (RFC 9110 7.6.1).
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

// What a client says about the path its request took is replaced by what the gateway knows.
const CLIENT_FORWARDING = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip'];

export interface ForwardContext {
  requestId: string;
  /** The signed identity headers (`signIdentity`). */
  identity: Record<string, string>;
  host: string;
  protocol: string;
}

/**
 * Headers for the upstream request: the client's, minus hop-by-hop and internal ones, minus the
 * bearer token (services trust the signed identity, so the token never leaves the edge), plus
 * the request id and the identity the gateway signed.
 */
export function upstreamRequestHeaders(headers: IncomingHttpHeaders, context: ForwardContext): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.includes(lower) || CLIENT_FORWARDING.includes(lower) || lower === 'authorization') continue;
    if (lower.startsWith(INTERNAL_HEADER_PREFIX) || lower === REQUEST_ID_HEADER) continue;
    out[lower] = value;
  }
  out[REQUEST_ID_HEADER] = context.requestId;
  // For upstreams that build absolute URLs (a tus Location header, say).
  out['x-forwarded-host'] = context.host;
  out['x-forwarded-proto'] = context.protocol;
  return Object.assign(out, context.identity);
}

/** Headers for the client: the upstream's, minus hop-by-hop and anything internal. */
export function clientResponseHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.includes(lower) || lower.startsWith(INTERNAL_HEADER_PREFIX)) continue;
    out[lower] = value;
  }
  return out;
}
