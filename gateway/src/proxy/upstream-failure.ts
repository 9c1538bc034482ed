export interface UpstreamFailure {
  status: 423 | 503 | 504;
  reason: 'timeout' | 'unreachable';
  message: string;
  /** Seconds, for a Retry-After header. */
  retryAfter?: number;
}

const TIMEOUT_CODES = new Set(['FST_REPLY_FROM_GATEWAY_TIMEOUT', 'FST_REPLY_FROM_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function codes(error: unknown): string[] {
  const found: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') found.push(code);
    current = current.cause;
  }
  return found;
}

/** `HEAD /api/uploads/{id}`: a tus client asking where to resume. */
const TUS_OFFSET_REQUEST = /^\/api\/uploads\/[^/]+$/;

/**
 * What the client is told when the upstream could not answer: 504 when it was too slow, 503 with
 * Retry-After for everything else (refused, reset, unresolvable: a service restarting or down,
 * which a client may simply try again). Which service it was stays in the logs.
 *
 * A tus client that gets anything but 2xx or 423 to its HEAD gives up on the upload and starts it
 * again from byte 0; 423 ("locked, retry later") makes it retry. So while the media service
 * restarts, a resuming client is told 423 and carries on where it was once the service is back.
 */
export function upstreamFailure(error: unknown, request?: { method: string; path: string }): UpstreamFailure {
  const reason = codes(error).some((code) => TIMEOUT_CODES.has(code)) ? 'timeout' : 'unreachable';
  if (request?.method === 'HEAD' && TUS_OFFSET_REQUEST.test(request.path)) {
    return { status: 423, reason, message: 'The upload cannot be reached right now, try again shortly', retryAfter: 1 };
  }
  if (reason === 'timeout') return { status: 504, reason, message: 'The service did not answer in time' };
  return { status: 503, reason, message: 'The service is unavailable, try again shortly', retryAfter: 2 };
}
