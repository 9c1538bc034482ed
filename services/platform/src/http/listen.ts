import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';

/** A service started in this process: its app, the URL it answers on, how to stop it. */
export interface RunningService {
  app: NestFastifyApplication;
  /** Base URL the service listens on (a loopback address when it listens on all interfaces). */
  url: string;
  close(): Promise<void>;
}

/** Listens (port 0 picks a free port) and returns the URL other parts of this process can use. */
export async function listenService(app: NestFastifyApplication, options: { name: string; port: number; host: string; logger: Logger }): Promise<string> {
  await app.listen({ port: options.port, host: options.host });
  const address = app.getHttpAdapter().getInstance().server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  options.logger.info({ port }, `${options.name} service listening`);
  return `http://${host}:${port}`;
}
