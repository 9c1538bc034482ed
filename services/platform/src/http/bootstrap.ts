import type { IdentitySecret } from '../identity/identity-headers.js';
import 'reflect-metadata';
import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Logger } from 'pino';
import { verifyIdentity } from '../identity/identity-headers.js';
import { PinoNestLogger } from '../logging/nest-logger.js';
import { acceptRequestId, REQUEST_ID_HEADER, runWithContext } from '../logging/request-context.js';
import { errorBody, HttpErrorFilter } from './errors.js';
import { type HealthCheck, HealthController } from './health.js';
import { createMetricsRegistry, instrumentHttp } from './metrics.js';
import { PlatformModule } from './platform.module.js';
import { canonicalPath } from '../ids/canonical-ids.js';
import { hostileInput } from './hostile-input.js';
import { createValidationPipe } from './validation.js';

export interface ServiceAppOptions {
  /** Service name: log field, metrics label, OpenAPI title. */
  name: string;
  module: Type | DynamicModule;
  logger: Logger;
  /** Key for the gateway's identity signatures. */
  identitySecret: IdentitySecret;
  healthChecks?: Record<string, HealthCheck>;
  /** JSON body limit in bytes (uploads stream through their own parsers). Default 1 MiB. */
  bodyLimit?: number;
  /** Nest preview mode: builds the module graph without instantiating providers (OpenAPI generation). */
  preview?: boolean;
}

/**
 * Builds a service's HTTP app with everything every service shares: request ids and verified
 * callers on every request, one error shape, whitelisting validation, health, metrics and an
 * OpenAPI document at `/openapi.json`.
 */
export async function createServiceApp(options: ServiceAppOptions): Promise<NestFastifyApplication> {
  const registry = createMetricsRegistry(options.name);

  @Module({
    imports: [PlatformModule.forRoot({ logger: options.logger, registry, healthChecks: options.healthChecks ?? {} }), options.module],
  })
  class ServiceRootModule {}

  const adapter = new FastifyAdapter({
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    requestIdHeader: false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => acceptRequestId(req.headers[REQUEST_ID_HEADER]),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // Ids reach every handler in the one form they are stored and compared in.
    rewriteUrl: (req: { url?: string }) => canonicalPath(req.url ?? '/'),
    connectionTimeout: 0,
    keepAliveTimeout: 65_000,
  });
  const app = await NestFactory.create<NestFastifyApplication>(ServiceRootModule, adapter, {
    logger: new PinoNestLogger(options.logger.child({ context: 'nest' })),
    abortOnError: false,
    preview: options.preview ?? false,
  });
  const fastify = app.getHttpAdapter().getInstance();

  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    // The gateway signed the path as the client sent it, before ids were made canonical.
    const check = verifyIdentity(options.identitySecret, request.headers, { requestId: request.id, method: request.method, url: request.originalUrl });
    if (!check.ok && check.reason !== 'missing') {
      options.logger.warn({ requestId: request.id, reason: check.reason }, 'refused identity headers');
      void reply.status(401).send(errorBody(401, 'Invalid internal identity'));
      return;
    }
    const identity = check.ok ? check.identity : { clientIp: request.ip };
    request.caller = { ...identity, requestId: request.id };
    runWithContext({ requestId: request.id, ...(identity.userId ? { userId: identity.userId } : {}) }, done);
  });
  // Input no handler can store or should walk is refused before any DTO sees it.
  fastify.addHook('preValidation', (request, reply, done) => {
    // The query parser makes objects without the usual prototype: copied, they are plain data.
    const problem = hostileInput(request.body) ?? hostileInput({ ...(request.query as object) });
    if (problem) {
      void reply.status(400).send(errorBody(400, problem));
      return;
    }
    done();
  });
  // Answers depend on who asks; a shared cache must never keep one for somebody else.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control') && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) void reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode >= 500) options.logger.error({ requestId: request.id, method: request.method, url: request.url, status: reply.statusCode }, 'request failed');
    else options.logger.debug({ requestId: request.id, method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    done();
  });
  instrumentHttp(fastify, registry);

  app.useGlobalFilters(new HttpErrorFilter(options.logger));
  app.useGlobalPipes(createValidationPipe());

  // Built on first request, not at start: a restarted service is ready sooner.
  let document: OpenAPIObject | undefined;
  fastify.get('/openapi.json', (_req, reply) => reply.send((document ??= buildOpenApi(app, options.name))));
  return app;
}

export function buildOpenApi(app: NestFastifyApplication, name: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(name)
    .setVersion('1')
    .addBearerAuth()
    .build();
  return SwaggerModule.createDocument(app, config, {
    // Operation ids must be unique across every service once the gateway merges the documents:
    // `TimelinesController.get` becomes `timelinesGet`.
    operationIdFactory: (controllerKey, methodKey) => {
      const resource = controllerKey.replace(/Controller$/, '');
      return `${resource.charAt(0).toLowerCase()}${resource.slice(1)}${methodKey.charAt(0).toUpperCase()}${methodKey.slice(1)}`;
    },
  });
}


/**
 * Stops a process cleanly on SIGTERM/SIGINT: readiness turns 503, in-flight requests and
 * messages finish (up to the grace period), then connections close in order.
 */
export function closeOnSignal(logger: Logger, graceSeconds: number, steps: Array<() => Promise<unknown>>): void {
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    HealthController.shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown grace period over; exiting');
      process.exit(1);
    }, graceSeconds * 1000);
    deadline.unref();
    for (const step of steps) {
      try {
        await step();
      } catch (err) {
        logger.error({ err }, 'shutdown step failed');
      }
    }
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void close('SIGTERM'));
  process.once('SIGINT', () => void close('SIGINT'));
}
