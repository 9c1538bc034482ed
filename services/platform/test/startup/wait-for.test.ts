import { createServer, type Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { createEventBus } from '../../src/bus/bus.factory.js';
import { testNatsUrl } from '../../src/bus/bus-testing.js';
import { waitForPostgres } from '../../src/startup/wait-for.js';
import { testBusPrefix } from '../../src/testing/postgres.js';
import { recordingLogger } from '../bus/recording-logger.js';

const freePort = async (): Promise<number> => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

/** A TCP forwarder to `target` that starts listening on `port` only after `delayMs`: a dependency coming up late. */
function lateForwarder(port: number, target: { host: string; port: number }, delayMs: number): { close(): Promise<void> } {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const timer = setTimeout(() => {
    server = createServer((client) => {
      const upstream = new Socket();
      sockets.add(client).add(upstream);
      upstream.connect(target.port, target.host);
      client.pipe(upstream).pipe(client);
      const end = () => { client.destroy(); upstream.destroy(); };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    server.listen(port, '127.0.0.1');
  }, delayMs);
  return {
    close: async () => {
      clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      if (server) await new Promise((resolve) => server!.close(resolve));
    },
  };
}

const natsTarget = () => {
  const url = new URL(testNatsUrl().split(',')[0]!);
  return { host: url.hostname, port: Number(url.port || 4222) };
};

describe('waiting for dependencies at start', () => {
  it('gives up on a Postgres that never comes, naming it, after the time allowed', async () => {
    const port = await freePort();
    const logger = recordingLogger();
    const started = Date.now();
    await expect(waitForPostgres(`postgres://postgres@127.0.0.1:${port}/test`, { timeoutMs: 1_500, logger, initialDelayMs: 100 }))
      .rejects.toThrow(new RegExp(`^Gave up waiting for Postgres at 127\\.0\\.0\\.1:${port}/test after \\d+ s \\(\\d+ tries\\)`));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(logger.entries.filter((e) => e.message === `Waiting for Postgres at 127.0.0.1:${port}/test`)).toHaveLength(1);
  });

  it('waits for a Postgres that comes up late, then goes on', async () => {
    const port = await freePort();
    const forwarder = lateForwarder(port, { host: '127.0.0.1', port: 5432 }, 1_200);
    const logger = recordingLogger();
    try {
      await waitForPostgres(`postgres://postgres@127.0.0.1:${port}/postgres`, { timeoutMs: 15_000, logger, initialDelayMs: 100 });
      const reached = logger.entries.find((e) => e.message.endsWith('is reachable'));
      expect(reached?.context).toMatchObject({ tries: expect.any(Number) });
      expect((reached!.context as { tries: number }).tries).toBeGreaterThan(1);
    } finally {
      await forwarder.close();
    }
  }, 20_000);

  it('waits for a NATS that comes up late when asked to, and fails at once when not', async () => {
    const port = await freePort();
    const prefix = testBusPrefix('waitnats');
    await expect(createEventBus({ natsUrl: `nats://127.0.0.1:${port}`, prefix })).rejects.toThrow();
    const forwarder = lateForwarder(port, natsTarget(), 1_200);
    const logger = recordingLogger();
    try {
      const bus = await createEventBus({ natsUrl: `nats://127.0.0.1:${port}`, prefix, logger, waitMs: 15_000 });
      expect(await bus.isHealthy()).toBe(true);
      expect(logger.entries.some((e) => e.message === `Waiting for NATS at nats://127.0.0.1:${port}`)).toBe(true);
      await bus.close();
    } finally {
      await forwarder.close();
    }
  }, 20_000);
});
