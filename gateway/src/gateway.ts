import 'reflect-metadata';
import type { Server } from 'node:http';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyWebsocket from '@fastify/websocket';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  acceptRequestId,
  createMetricsRegistry,
  type EventBus,
  HttpErrorFilter,
  instrumentHttp,
  type Logger,
  PinoNestLogger,
  PlatformModule,
  REQUEST_ID_HEADER,
} from '@timeliner/platform';
import type { GatewayConfig } from './gateway.config.js';
import { WindowLimit } from './http/content-rate-limit.js';
import { GatewayMetrics } from './http/gateway-metrics.js';
import { addTooManyRequestsPage, credentialRateLimit, globalRateLimit } from './http/rate-limits.js';
import { MemoryRateCounter, type RateCounter, RedisRateCounter } from './http/rate-counter.js';
import { addRequestContext } from './http/request-context.js';
import { addJsonCompression } from './http/compression.js';
import { addSecurityHeaders } from './http/security-headers.js';
import { guardSlowClients } from './http/slow-clients.js';
import { listenInternal, restrictInternalPaths } from './http/internal-port.js';
import { gatewayHealthChecks } from './http/upstream-health.js';
import { apiDocsPlugin } from './openapi/api-docs.plugin.js';
import { OpenApiAggregator } from './openapi/openapi-aggregator.js';
import { proxyPlugin } from './proxy/proxy.plugin.js';
import { realtimePlugin } from './realtime/realtime.plugin.js';
import { busTimelineAccess, type TimelineAccessCheck, TopicAuthorizer } from './realtime/topic-authorizer.js';
import { websocketServerOptions } from './realtime/websocket-server.js';
import { type RouteEntry, RouteTable } from './routes/route-table.js';
import { BusSessionLookup } from './sessions/session-lookup.js';
import { SessionResolver } from './sessions/session-resolver.js';
import { watchRevocations } from './sessions/session-revocations.js';
import { webAppPlugin } from './web/web-app.plugin.js';

export interface GatewayOptions {
  config: GatewayConfig;
  logger: Logger;
  bus: EventBus;
  /** Base URL of each upstream service by name (`auth` → `http://127.0.0.1:3001`). */
  services: Record<string, string>;
  /** Key for the identity headers; the services verify with the same one. */
  identitySecret: string;
  /** The built frontend; default config.WEB_DIST. */
  webDist?: string;
  /** Who may watch a timeline over /ws; default: ask the timelines service over the bus. */
  timelineAccess?: TimelineAccessCheck;
  /** The route table; default the product's (ROUTES). Tests of the proxy's mechanics pass their own. */
  routes?: readonly RouteEntry[];
}

/** How long a starting gateway waits for Redis before it starts counting in its own memory. */
const REDIS_START_WAIT_MS = 3_000;

/**
 * Where the rate limits count: Redis when REDIS_URL is set (shared by every replica), else this
 * process's memory. A Redis that is not there at start is not waited for beyond a moment: the
 * counter falls back to memory and joins Redis when it answers.
 */
async function openRateCounter(config: GatewayConfig, logger: Logger, metrics: GatewayMetrics): Promise<RateCounter> {
  if (!config.REDIS_URL) return new MemoryRateCounter();
  const counter = new RedisRateCounter({
    url: config.REDIS_URL,
    keyPrefix: config.REDIS_KEY_PREFIX,
    logger,
    onFallback: () => metrics.rateLimitFallbacks.inc(),
  });
  await counter.waitUntilConnected(REDIS_START_WAIT_MS);
  return counter;
}

// The gateway's own JSON bodies are tiny; proxied bodies are never parsed and have no limit here.
const OWN_BODY_LIMIT = 1024 * 1024;

/**
 * Builds the gateway, initialised but not listening: the standalone process (main.ts) and the
 * single-process launcher both start it with `listen()`. Closing the app closes its sockets and
 * bus subscriptions; the bus itself belongs to the caller.
 */
export async function createGateway(options: GatewayOptions): Promise<NestFastifyApplication> {
  const { config, logger, bus } = options;
  const upstreams = Object.fromEntries(Object.entries(options.services).map(([name, url]) => [name, url.replace(/\/+$/, '')]));
  const routes = new RouteTable(options.routes);
  const registry = createMetricsRegistry('gateway');
  const metrics = new GatewayMetrics(registry);
  const sessions = new SessionResolver(new BusSessionLookup(bus, config.AUTH_TIMEOUT_MS), {
    ttlMs: config.SESSION_CACHE_TTL_SECONDS * 1000,
    onResult: (result) => metrics.sessionChecks.inc({ result }),
  });

  const publicServer: { current?: Server } = {};
  @Module({ imports: [PlatformModule.forRoot({ logger, registry, healthChecks: gatewayHealthChecks(bus, () => publicServer.current) })] })
  class GatewayRootModule {}

  const adapter = new FastifyAdapter({
    trustProxy: config.trustProxy(),
    bodyLimit: OWN_BODY_LIMIT,
    requestIdHeader: false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => acceptRequestId(req.headers[REQUEST_ID_HEADER]),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Uploads may take as long as the client's connection needs; idle sockets still time out.
    requestTimeout: 0,
    connectionTimeout: 0,
    keepAliveTimeout: 65_000,
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayRootModule, adapter, {
    logger: new PinoNestLogger(logger.child({ context: 'nest' })),
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  publicServer.current = app.getHttpServer() as Server;
  app.useGlobalFilters(new HttpErrorFilter(logger));

  // Order matters: hooks run in registration order, and rate limits attach to routes declared after them.
  addRequestContext(fastify, logger);
  const internalMark = restrictInternalPaths(fastify).mark;
  instrumentHttp(fastify, registry);
  guardSlowClients(fastify, app.getHttpServer() as Server, {
    windowMs: config.BODY_TIMEOUT_SECONDS * 1000,
    minBytesPerSecond: config.BODY_MIN_BYTES_PER_SECOND,
    maxConnectionsPerAddress: config.TRUST_PROXY ? 0 : config.MAX_CONNECTIONS_PER_ADDRESS,
    logger,
  });
  addSecurityHeaders(fastify);
  await addJsonCompression(fastify);
  const rateCounter = await openRateCounter(config, logger, metrics);
  fastify.addHook('onClose', async () => rateCounter.close());
  await app.register(fastifyRateLimit, globalRateLimit(config, rateCounter));
  addTooManyRequestsPage(fastify);
  await app.register(fastifyWebsocket, websocketServerOptions);

  const revocations = await watchRevocations(bus, sessions, logger);
  fastify.addHook('onClose', async () => revocations.unsubscribe());

  await app.register(proxyPlugin, {
    routes,
    upstreams,
    sessions,
    identitySecret: options.identitySecret,
    upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_SECONDS * 1000,
    credentialRateLimit: credentialRateLimit(config),
    contentRateLimit: new WindowLimit(rateCounter, 'content', config.CONTENT_RATE_LIMIT_MAX, config.CONTENT_RATE_LIMIT_WINDOW_SECONDS * 1000),
    anonymousWriteLimit: new WindowLimit(rateCounter, 'anonymous-writes', config.ANONYMOUS_WRITE_LIMIT_MAX, config.ANONYMOUS_WRITE_LIMIT_WINDOW_SECONDS * 1000),
    metrics,
    logger,
  });
  await app.register(realtimePlugin, {
    bus,
    sessions,
    authorizer: new TopicAuthorizer(options.timelineAccess ?? busTimelineAccess(bus, config.AUTH_TIMEOUT_MS)),
    publicOrigin: config.PUBLIC_ORIGIN,
    metrics,
    logger,
  });
  await app.register(apiDocsPlugin, { aggregator: new OpenApiAggregator(upstreams, routes, logger), logger });
  await app.register(webAppPlugin, { webDist: options.webDist ?? config.WEB_DIST, logger });

  await app.init();
  const internalUrl = await listenInternal(fastify, internalMark, config.INTERNAL_PORT, config.INTERNAL_HOST, app);
  logger.info({ url: internalUrl }, 'probes (/health/live, /health/ready) and /metrics on the internal port');
  return app;
}
