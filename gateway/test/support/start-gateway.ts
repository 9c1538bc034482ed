import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLogger, type EventBus, loadConfig } from '@timeliner/platform';
import { createGateway, type GatewayOptions } from '../../src/gateway.js';
import { internalUrlOf } from '../../src/http/internal-port.js';
import { GatewayConfig } from '../../src/gateway.config.js';
import { type AnonymousMethod, type RouteEntry, ROUTES, RouteTable } from '../../src/routes/route-table.js';

export const SECRET = randomBytes(32).toString('hex');

export interface RunningGateway {
  app: NestFastifyApplication;
  url: string;
  /** Where /metrics and /health/* are served (a free loopback port unless INTERNAL_PORT is given). */
  internalUrl: string;
  close(): Promise<void>;
}

/**
 * The gateway refuses to start without a URL for every service its table routes to. Tests name the
 * upstreams they exercise; every other routed service gets the first of them (a fake upstream
 * whose document the gateway then filters to nothing for that service).
 */
const withEveryRoutedService = (services: Record<string, string>): Record<string, string> => {
  const stand = Object.values(services)[0];
  if (!stand) return services;
  return { ...Object.fromEntries(new RouteTable().services().map((name) => [name, stand])), ...services };
};

const EVERY_METHOD: AnonymousMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The product's table with every route open to callers without a session: what the tests of the
 * proxy's mechanics (streaming, limits, headers, failures) run on, through the stand-in upstreams'
 * paths. Who may call without signing in is tested on the product's own table
 * (anonymous-matrix.test.ts).
 */
export const OPEN_ROUTES: readonly RouteEntry[] = ROUTES.map((entry) => ({ ...entry, anonymous: EVERY_METHOD }));

export async function startGateway(options: {
  bus: EventBus;
  services: Record<string, string>;
  env?: Record<string, string>;
  webDist?: string;
  timelineAccess?: GatewayOptions['timelineAccess'];
  /** Default OPEN_ROUTES. */
  routes?: readonly RouteEntry[];
}): Promise<RunningGateway> {
  const config = loadConfig(GatewayConfig, { LOG_LEVEL: 'silent', INTERNAL_PORT: '0', ...options.env });
  const app = await createGateway({
    config,
    logger: createLogger('gateway-test', process.env.TEST_LOG_LEVEL ?? 'silent'),
    bus: options.bus,
    services: withEveryRoutedService(options.services),
    identitySecret: SECRET,
    ...(options.webDist ? { webDist: options.webDist } : {}),
    ...(options.timelineAccess ? { timelineAccess: options.timelineAccess } : {}),
    routes: options.routes ?? OPEN_ROUTES,
  });
  await app.getHttpAdapter().getInstance().ready();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, internalUrl: internalUrlOf(app)!, close: () => app.close() };
}
