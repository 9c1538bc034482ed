import type { WebsocketPluginOptions } from '@fastify/websocket';
import { CloseCode } from './realtime-connection.js';

/** Largest message a client may send; ours are a few dozen bytes. Larger closes the socket (1009). */
export const MAX_CLIENT_MESSAGE_BYTES = 4 * 1024;

/**
 * Options of `@fastify/websocket`, registered at the root so every route knows about upgrades
 * (a route without a WebSocket handler closes them).
 */
export const websocketServerOptions: WebsocketPluginOptions = {
  // No per-message compression: our messages are small, and each compressing socket holds zlib state.
  options: { maxPayload: MAX_CLIENT_MESSAGE_BYTES, perMessageDeflate: false },
  preClose(done) {
    // On shutdown, tell clients to reconnect (to another replica) rather than report an error.
    for (const client of this.websocketServer.clients) client.close(CloseCode.goingAway, 'Server restarting');
    this.websocketServer.close();
    done();
  },
};
