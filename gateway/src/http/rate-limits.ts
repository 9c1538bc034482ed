import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitOptions, RateLimitPluginOptions } from '@fastify/rate-limit';
import { HttpException } from '@nestjs/common';
import { errorBody } from '@timeliner/platform';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../gateway.config.js';
import { policyWithStyleNonce } from '../web/index-page.js';
import type { RateCounter } from './rate-counter.js';

/** Where sign-in attempts are made: a tighter per-address limit, shared by both. */
export const CREDENTIAL_ROUTES = ['/api/auth/login', '/api/auth/register', '/api/auth/login/second-step', '/api/auth/passkeys/sign-in'];

// Only the API and the socket are counted. Probes and scrapes come from the platform, often from
// one address, and must never be refused; the web app's files and pages are served from disk (a
// first visit is about 80 of them) and must not spend the API's budget.
const LIMITED = /^\/(api|ws)(\/|\?|$)/;

const tooMany = (_request: FastifyRequest, context: { after: string }) =>
  new HttpException(errorBody(429, `Too many requests, try again in ${context.after}`), 429);

/** Name of the credential limit's counters (`groupId` reaches the store through the route options). */
const CREDENTIALS = 'credentials';

/**
 * The @fastify/rate-limit store over our RateCounter: the plugin's limits count where the
 * gateway's own do (this replica's memory, or Redis shared by all replicas). Each limit the
 * plugin derives (the credential limit) counts under its own name.
 */
export function counterStore(counter: RateCounter): FastifyRateLimitStoreCtor {
  const storeNamed = (limitName: string): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow) {
      counter.hit(`${limitName}:${key}`, timeWindow).then(
        (window) => callback(null, { current: window.count, ttl: window.resetInMs }),
        (error: Error) => callback(error),
      );
    },
    child(routeOptions) {
      // What the plugin passes is the derived limit's options merged with its own, not a route.
      const { groupId, routeInfo } = routeOptions as { groupId?: string; routeInfo?: { method?: string; url?: string } };
      return storeNamed(groupId ?? `${routeInfo?.method}:${routeInfo?.url}`);
    },
  });
  // The plugin instantiates the store with `new`; a constructor may return the object to use.
  return function CounterStore() {
    return storeNamed('requests');
  } as unknown as FastifyRateLimitStoreCtor;
}

/**
 * Per client address (the socket's peer, or what TRUST_PROXY allows): a coarse front line. With
 * REDIS_URL it is one budget across all replicas; without, each replica keeps its own. The auth
 * service keeps the precise per-account limits.
 */
export function globalRateLimit(config: GatewayConfig, counter: RateCounter): RateLimitPluginOptions {
  return {
    global: true,
    max: config.RATE_LIMIT_MAX,
    timeWindow: config.RATE_LIMIT_WINDOW_SECONDS * 1000,
    store: counterStore(counter),
    allowList: (request) => !LIMITED.test(request.url),
    errorResponseBuilder: tooMany,
  };
}

export function credentialRateLimit(config: GatewayConfig): RateLimitOptions {
  return {
    max: config.AUTH_RATE_LIMIT_MAX,
    timeWindow: config.AUTH_RATE_LIMIT_WINDOW_SECONDS * 1000,
    groupId: CREDENTIALS,
    errorResponseBuilder: tooMany,
  };
}

/** A browser opening a page (typing an address, following a link), not a script's fetch. */
export function isNavigation(request: FastifyRequest): boolean {
  const mode = request.headers['sec-fetch-mode'];
  if (typeof mode === 'string') return mode === 'navigate';
  // Browsers without Fetch Metadata: a request that prefers HTML.
  const accept = request.headers.accept ?? '';
  return /^\s*text\/html/i.test(accept);
}

/** The seconds to wait, from Retry-After (at least 1). */
const retrySeconds = (value: unknown): number => {
  const seconds = Math.ceil(Number(value));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 1;
};

/**
 * The page a browser shows when a navigation is refused for too many requests: the app's look,
 * the wait in seconds, a reload once it has passed. Self-contained (no script, one nonce'd style).
 */
export function tooManyRequestsPage(seconds: number, nonce: string): string {
  const unit = seconds === 1 ? 'second' : 'seconds';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${seconds}">
<title>Too many requests · Timeliner</title>
<style nonce="${nonce}">
body{margin:0;min-height:100vh;display:grid;place-items:center;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f7fb;color:#111827}
main{max-width:26rem;margin:1.5rem;padding:2rem;border:1px solid #e2e5ee;border-radius:1rem;background:#fff;text-align:center}
h1{margin:0 0 .5rem;font-size:1.375rem}p{margin:0 0 1.25rem;color:#596074}
a{display:inline-block;padding:.625rem 1.25rem;border-radius:999px;background:#4f46e5;color:#fff;font-weight:600;text-decoration:none}
</style>
</head>
<body>
<main>
<h1>Too many requests</h1>
<p>Too many requests came from your network. Try again in ${seconds} s (${seconds} ${unit}); this page reloads by itself.</p>
<a href="">Try again</a>
</main>
</body>
</html>
`;
}

/**
 * A 429 answering a page navigation becomes the app's own "try again in N s" page instead of
 * the JSON error a script gets (a browser would show the JSON as the page).
 */
export function addTooManyRequestsPage(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 429 || request.method !== 'GET' || !isNavigation(request)) return payload;
    const nonce = randomBytes(16).toString('base64');
    void reply.header('content-type', 'text/html; charset=utf-8');
    void reply.header('content-security-policy', policyWithStyleNonce(nonce));
    void reply.header('cache-control', 'no-store');
    void reply.removeHeader('content-length');
    return tooManyRequestsPage(retrySeconds(reply.getHeader('retry-after')), nonce);
  });
}
