import type { RateLimitOptions, RateLimitPluginOptions } from '@fastify/rate-limit';
import { HttpException } from '@nestjs/common';
import { errorBody } from '@timeliner/platform';
import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../gateway.config.js';

/** Where sign-in attempts are made: a tighter per-address limit, shared by both. */
export const CREDENTIAL_ROUTES = ['/api/auth/login', '/api/auth/register'];

// Only the API and the socket are counted. Probes and scrapes come from the platform, often from
// one address, and must never be refused; the web app's files and pages are served from disk (a
// first visit is about 80 of them) and must not spend the API's budget.
const LIMITED = /^\/(api|ws)(\/|\?|$)/;

const tooMany = (_request: FastifyRequest, context: { after: string }) =>
  new HttpException(errorBody(429, `Too many requests, try again in ${context.after}`), 429);

/**
 * Per client address (the socket's peer, or what TRUST_PROXY allows): a coarse front line in
 * each replica's memory, so the effective limit grows with the replica count. The auth service
 * keeps the precise per-account limits.
 */
export function globalRateLimit(config: GatewayConfig): RateLimitPluginOptions {
  return {
    global: true,
    max: config.RATE_LIMIT_MAX,
    timeWindow: config.RATE_LIMIT_WINDOW_SECONDS * 1000,
    cache: 50_000,
    allowList: (request) => !LIMITED.test(request.url),
    errorResponseBuilder: tooMany,
  };
}

export function credentialRateLimit(config: GatewayConfig): RateLimitOptions {
  return {
    max: config.AUTH_RATE_LIMIT_MAX,
    timeWindow: config.AUTH_RATE_LIMIT_WINDOW_SECONDS * 1000,
    errorResponseBuilder: tooMany,
  };
}
