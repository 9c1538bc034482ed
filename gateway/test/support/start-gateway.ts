import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLogger, type EventBus, loadConfig } from '@timeliner/platform';
import { createGateway, type GatewayOptions } from '../../src/gateway.js';
import { GatewayConfig } from '../../src/gateway.config.js';

export const SECRET = randomBytes(32).toString('hex');

export interface RunningGateway {
  app: NestFastifyApplication;
  url: string;
  close(): Promise<void>;
}

export async function startGateway(options: {
  bus: EventBus;
  services: Record<string, string>;
  env?: Record<string, string>;
  webDist?: string;
  timelineAccess?: GatewayOptions['timelineAccess'];
}): Promise<RunningGateway> {
  const config = loadConfig(GatewayConfig, { LOG_LEVEL: 'silent', ...options.env });
  const app = await createGateway({
    config,
    logger: createLogger('gateway-test', process.env.TEST_LOG_LEVEL ?? 'silent'),
    bus: options.bus,
    services: options.services,
    identitySecret: SECRET,
    ...(options.webDist ? { webDist: options.webDist } : {}),
    ...(options.timelineAccess ? { timelineAccess: options.timelineAccess } : {}),
  });
  await app.getHttpAdapter().getInstance().ready();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
}
