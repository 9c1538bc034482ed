import { errorBody, type EventBus, type Logger } from '@timeliner/platform';
import type { FastifyInstance } from 'fastify';
import { jsonErrorHandler } from '../http/error-handler.js';
import type { GatewayMetrics } from '../http/gateway-metrics.js';
import type { Revocation, SessionResolver } from '../sessions/session-resolver.js';
import { originAllowed } from './origin-check.js';
import { CloseCode, type ConnectionLimits, DEFAULT_LIMITS, RealtimeConnection } from './realtime-connection.js';
import { watchAccessChanges } from './access-watch.js';
import type { TopicAuthorizer } from './topic-authorizer.js';
import { relayRealtime, TopicHub, type TopicSubscriber } from './topic-hub.js';

export interface RealtimeOptions {
  bus: EventBus;
  sessions: SessionResolver;
  authorizer: TopicAuthorizer;
  publicOrigin: string | undefined;
  metrics: GatewayMetrics;
  logger: Logger;
  limits?: Partial<ConnectionLimits>;
  heartbeatMs?: number;
}

const revokes = (revocation: Revocation) => (socket: TopicSubscriber) =>
  revocation.sessionId ? socket.sessionId === revocation.sessionId : !!revocation.userId && socket.userId === revocation.userId;

/** `/ws`: authenticated sockets that receive the realtime messages of the topics they watch. */
export async function realtimePlugin(fastify: FastifyInstance, options: RealtimeOptions): Promise<void> {
  const { sessions, authorizer, metrics, logger } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const hub = new TopicHub(logger, (count) => metrics.realtimeDelivered.inc(count));
  const sockets = new Set<RealtimeConnection>();

  fastify.setErrorHandler(jsonErrorHandler(logger));
  const relay = await relayRealtime(options.bus, hub);
  const accessWatch = await watchAccessChanges(options.bus, hub, authorizer, logger);
  const stopWatching = sessions.onRevoked((revocation) => hub.closeWhere(revokes(revocation), CloseCode.unauthorized, 'Session revoked'));

  // Finds sockets whose peer vanished without a close (a phone that lost its network).
  const heartbeat = setInterval(() => {
    for (const socket of sockets) socket.ping();
  }, options.heartbeatMs ?? 30_000);
  heartbeat.unref();

  fastify.addHook('onClose', async () => {
    clearInterval(heartbeat);
    stopWatching();
    await relay.unsubscribe();
    await accessWatch.unsubscribe();
  });

  fastify.route({
    method: 'GET',
    url: '/ws',
    onRequest: (request, reply, done) => {
      if (originAllowed(request.headers.origin, request.host, options.publicOrigin)) return done();
      logger.warn({ origin: request.headers.origin, requestId: request.id }, 'websocket from a foreign origin refused');
      void reply.status(403).send(errorBody(403, 'Origin not allowed'));
    },
    handler: (_request, reply) => reply.status(426).header('upgrade', 'websocket').send(errorBody(426, 'This endpoint speaks WebSocket only')),
    wsHandler: (socket, request) => {
      const connection = new RealtimeConnection(socket, { sessions, authorizer, hub, logger, limits }, request.id);
      sockets.add(connection);
      metrics.sockets.inc();
      socket.once('close', () => {
        sockets.delete(connection);
        metrics.sockets.dec();
      });
    },
  });
}
