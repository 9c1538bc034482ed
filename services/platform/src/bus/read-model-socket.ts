import { fromBinary } from '@bufbuild/protobuf';
import { rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { ReadModelProgressSchema, ReadModelRebuild } from '@timeliner/proto';
import type { Logger } from 'pino';
import type { EventBus } from './event-bus.port.js';
import { requestRpc } from './rpc.js';

/** The socket's file under DATA_DIR: what `npm run read-model` looks for when NATS_URL is not set. */
export const READ_MODEL_SOCKET = 'read-model.sock';

/**
 * The single-process mode's way in for `npm run read-model -- rebuild` (the in-process bus is
 * reachable from this process only): a Unix socket, readable by the process's user only, that
 * takes one line of JSON (`{"service":"search","model":""}`), asks the service to rebuild on the
 * bus as the command does over NATS, and answers with lines of JSON: the reply
 * (`{"reply":{"rebuildId","models","alreadyRunning"}}`), then each progress message
 * (`{"progress":{...}}`) until every model is finished, or `{"error":"..."}`.
 */
export async function serveReadModelSocket(bus: EventBus, socketPath: string, logger: Logger): Promise<{ close(): Promise<void> }> {
  await rm(socketPath, { force: true });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    let taken = false;
    socket.on('data', (chunk) => {
      if (taken) return;
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline < 0 || buffered.length > 10_000) return;
      taken = true;
      void answer(socket, buffered.slice(0, newline));
    });
  });
  const send = (socket: Socket, message: unknown) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value))}\n`);
  };
  const answer = async (socket: Socket, line: string) => {
    let sub: { unsubscribe(): Promise<void> } | undefined;
    try {
      const { service, model } = JSON.parse(line) as { service?: unknown; model?: unknown };
      if (typeof service !== 'string' || !/^[a-z]{1,40}$/.test(service)) throw new Error('name a service: {"service":"search"}');
      const pending = new Set<string>();
      let rebuildId = '';
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      sub = await bus.subscribe(ReadModelRebuild.progressSubject(service), (message) => {
        const progress = fromBinary(ReadModelProgressSchema, message.data);
        if (rebuildId && progress.rebuildId !== rebuildId) return;
        send(socket, { progress });
        if (progress.finished) {
          pending.delete(progress.model);
          if (pending.size === 0) finish();
        }
      });
      const reply = await requestRpc(bus, ReadModelRebuild.rpc(service), { model: typeof model === 'string' ? model : '' }, { timeoutMs: 10_000 });
      rebuildId = reply.rebuildId;
      for (const name of reply.models) pending.add(name);
      send(socket, { reply: { rebuildId: reply.rebuildId, models: reply.models, alreadyRunning: reply.alreadyRunning } });
      socket.once('close', finish);
      await finished;
    } catch (error) {
      send(socket, { error: error instanceof Error ? error.message : String(error) });
    } finally {
      await sub?.unsubscribe().catch(() => undefined);
      socket.end();
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: socketPath, readableAll: false, writableAll: false }, () => resolve());
  });
  logger.info({ socketPath }, 'read model rebuilds: `npm run read-model -- rebuild <service>` reaches this process through its socket');
  return {
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}
