import type { RateLimitOptions } from '@fastify/rate-limit';
import replyFrom from '@fastify/reply-from';
import { BadRequestException, HttpException, NotFoundException, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { currentContext, errorBody, type Logger, signIdentity } from '@timeliner/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAnonymousWrite, isContentWrite, type WindowLimit } from '../http/content-rate-limit.js';
import { jsonErrorHandler } from '../http/error-handler.js';
import type { GatewayMetrics } from '../http/gateway-metrics.js';
import { CREDENTIAL_ROUTES } from '../http/rate-limits.js';
import { anonymousMayCall, type RouteTable } from '../routes/route-table.js';
import { bearerToken, tokenHash } from '../sessions/bearer-token.js';
import { SessionCheckUnavailableError, type VerifiedSession } from '../sessions/session-lookup.js';
import type { SessionResolver } from '../sessions/session-resolver.js';
import { clientResponseHeaders, upstreamRequestHeaders } from './forward-headers.js';
import { forwardTarget } from './forward-target.js';
import { upstreamFailure } from './upstream-failure.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOGOUT_PATH = '/api/auth/logout';
/** What a caller without a session hears on every route not open to them (route-table.ts). */
export const SIGN_IN_REQUIRED = 'Authentication required';

export interface ProxyOptions {
  routes: RouteTable;
  /** Base URL by service name; one for every service the route table names. */
  upstreams: Record<string, string>;
  sessions: SessionResolver;
  identitySecret: string;
  upstreamTimeoutMs: number;
  /** Limit for CREDENTIAL_ROUTES, in place of the global one. */
  credentialRateLimit: RateLimitOptions;
  /** Per-person limit on writes that create content. */
  contentRateLimit: WindowLimit;
  /** Writes without a session, per client address (the limiter's key is the address then). */
  anonymousWriteLimit: WindowLimit;
  metrics: GatewayMetrics;
  logger: Logger;
}

/** What every service accepts as a JSON body (services/platform bootstrap's bodyLimit). */
export const JSON_BODY_LIMIT = 1024 * 1024;

const jsonTooLarge = (request: FastifyRequest): boolean => {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/([\w.+-]+\+)?json\b/.test(type)) return false;
  const length = Number(request.headers['content-length']);
  return Number.isFinite(length) && length > JSON_BODY_LIMIT;
};

/**
 * `/api/*`: resolves the owner in the route table and the caller from the bearer token, then
 * streams the request to the owner and its answer back. Registered as its own plugin so its
 * catch-all body parser (hand the body over unread) applies to these routes only.
 */
export async function proxyPlugin(fastify: FastifyInstance, options: ProxyOptions): Promise<void> {
  const { routes, upstreams, sessions, metrics, logger } = options;
  for (const service of routes.services()) {
    if (!upstreams[service]) {
      throw new Error(`No URL for the "${service}" service, which the route table forwards to (set ${service.toUpperCase()}_SERVICE_URL)`);
    }
  }

  fastify.setErrorHandler(jsonErrorHandler(logger));
  // Bodies stay streams: a 2 GB upload passes through in constant memory, and size and type
  // checks belong to the service that owns the upload.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  await fastify.register(replyFrom, {
    disableCache: true,
    disableRequestLogging: true,
    undici: {
      connections: 256,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: options.upstreamTimeoutMs,
      bodyTimeout: options.upstreamTimeoutMs,
    },
  });

  const callerOf = async (request: FastifyRequest, reply: FastifyReply): Promise<VerifiedSession | null> => {
    try {
      // An invalid or expired token continues anonymously: what is open to signed-out callers
      // keeps working, everything else is 401 (the spec's client drops its token when
      // /api/auth/me fails). Only "cannot tell" is an error.
      return await sessions.resolveHeader(request.headers.authorization, request.id, { fresh: !READS.has(request.method) });
    } catch (error) {
      if (!(error instanceof SessionCheckUnavailableError)) throw error;
      logger.warn({ err: error, requestId: request.id }, 'session check unavailable');
      // Not a verdict on the token: the client should simply come back in a moment.
      void reply.header('retry-after', '2');
      throw new ServiceUnavailableException('Authentication is temporarily unavailable, try again shortly');
    }
  };

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const target = forwardTarget(request.url);
    if (!target) throw new BadRequestException('Malformed request path');
    if (jsonTooLarge(request)) {
      // Said here, before any byte goes upstream: a service refusing mid-body would leave the
      // gateway with a broken upstream connection to report (502) instead of the real answer.
      void reply.header('connection', 'close');
      throw new HttpException(errorBody(413, `A JSON body may be at most ${JSON_BODY_LIMIT / 1024 / 1024} MiB`), 413);
    }
    const route = routes.resolve(target.path);
    if (!route) throw new NotFoundException(`Cannot ${request.method} ${target.path}`);
    const session = await callerOf(request, reply);
    // The one place that decides what a signed-out caller reaches: the route table's `anonymous`.
    if (!session && !anonymousMayCall(route, request.method)) throw new UnauthorizedException(SIGN_IN_REQUIRED);
    const context = currentContext();
    if (context && session) context.userId = session.userId;
    if (session && isContentWrite(request.method, target.path)) {
      const wait = await options.contentRateLimit.take(session.userId);
      if (wait > 0) {
        void reply.header('retry-after', String(wait));
        throw new HttpException(errorBody(429, `You are posting too fast, try again in ${wait} seconds`), 429);
      }
    }
    if (!session && isAnonymousWrite(request.method, target.path)) {
      const wait = await options.anonymousWriteLimit.take(request.ip);
      if (wait > 0) {
        void reply.header('retry-after', String(wait));
        throw new HttpException(errorBody(429, `Too many requests from this address, try again in ${wait} seconds`), 429);
      }
    }
    const identity = signIdentity(
      options.identitySecret,
      { clientIp: request.ip, ...(session ? { userId: session.userId, sessionId: session.sessionId } : {}) },
      { requestId: request.id, method: request.method, url: target.path },
    );
    const labels = { service: route.service, route: route.pattern, method: request.method };
    const started = performance.now();

    return reply.from(`${upstreams[route.service]}${target.path}${target.search}`, {
      // Never replay a request on our own: a non-idempotent one could apply twice, and a 503
      // from a service is its answer to give.
      retryDelay: () => null,
      rewriteRequestHeaders: (req, headers) =>
        upstreamRequestHeaders(headers, { requestId: req.id, identity, host: req.host, protocol: req.protocol }),
      rewriteHeaders: (headers) => clientResponseHeaders(headers),
      onResponse: (_req, rep, response) => {
        metrics.upstreamDuration.observe({ ...labels, status: String(response.statusCode) }, (performance.now() - started) / 1000);
        // The client hears "signed out" only after this replica has forgotten the token; the
        // others drop it on the revocation event and check every write afresh meanwhile.
        if (target.path === LOGOUT_PATH && response.statusCode < 300) {
          const token = bearerToken(request.headers.authorization);
          if (token) sessions.revoke({ tokenHash: tokenHash(token) });
        }
        void rep.send(response.stream);
      },
      onError: (rep, { error }) => {
        if (rep.raw.destroyed) {
          // The client went away mid-request (an abandoned upload): nobody to answer, nothing wrong upstream.
          logger.debug({ requestId: request.id, service: route.service }, 'client left before the upstream answered');
          return;
        }
        const failure = upstreamFailure(error, { method: request.method, path: target.path });
        metrics.upstreamFailures.inc({ service: route.service, route: route.pattern, reason: failure.reason });
        logger.warn({ err: error, requestId: request.id, service: route.service, reason: failure.reason }, 'upstream failed');
        if (failure.retryAfter) void rep.header('retry-after', String(failure.retryAfter));
        void rep.status(failure.status).type('application/json; charset=utf-8').send(errorBody(failure.status, failure.message));
      },
    });
  };

  // An answer given before the request's body has all arrived (the service failed or answered
  // early mid-upload) closes the connection: the rest of the body is never read, and a client
  // that reused the connection would have its next request stuck behind it until a timeout
  // (tus-js-client's HEAD after a failed 8 MiB PATCH waited a minute).
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete) void reply.header('connection', 'close');
    return payload;
  });

  fastify.all('/api/*', forward);
  // Sign-in attempts get their own, tighter limit (shared by both routes) instead of the global one.
  const credentialLimit = fastify.rateLimit(options.credentialRateLimit);
  for (const url of CREDENTIAL_ROUTES) {
    fastify.route({ method: 'POST', url, onRequest: credentialLimit, config: { rateLimit: false }, handler: forward });
  }
}

