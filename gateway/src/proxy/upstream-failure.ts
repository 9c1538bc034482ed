export interface UpstreamFailure {
  status: 502 | 504;
  reason: 'timeout' | 'unreachable';
  message: string;
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

/**
 * What the client is told when the upstream could not answer: 504 when it was too slow, 502 for
 * everything else (refused, reset, unresolvable). Which service it was stays in the logs.
 */
export function upstreamFailure(error: unknown): UpstreamFailure {
  if (codes(error).some((code) => TIMEOUT_CODES.has(code))) {
    return { status: 504, reason: 'timeout', message: 'The service did not answer in time' };
  }
  return { status: 502, reason: 'unreachable', message: 'The service is unavailable, try again shortly' };
}
