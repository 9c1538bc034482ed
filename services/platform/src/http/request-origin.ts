import type { FastifyRequest } from 'fastify';

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();

/**
 * The web app's origin as the request reached the gateway (its X-Forwarded-Proto and
 * X-Forwarded-Host, which the gateway sets; the request's own when called directly): where a link
 * in an e-mail (an invitation, a password reset) leads when PUBLIC_ORIGIN is not set, so someone
 * using the app at 127.0.0.1 gets a link to 127.0.0.1, not localhost. Undefined unless it is a plain http(s) origin.
 */
export function requestOrigin(request: Pick<FastifyRequest, 'headers' | 'protocol'>): string | undefined {
  const protocol = first(request.headers['x-forwarded-proto']) ?? request.protocol;
  const host = first(request.headers['x-forwarded-host']) ?? first(request.headers.host);
  if ((protocol !== 'http' && protocol !== 'https') || !host || !/^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host)) return undefined;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}
