import type { Logger } from '@timeliner/platform';
import { Realtime } from '@timeliner/proto';
import type { RawData, WebSocket } from 'ws';
import { SessionCheckUnavailableError, type VerifiedSession } from '../sessions/session-lookup.js';
import type { SessionResolver } from '../sessions/session-resolver.js';
import { type ClientMessage, parseClientMessage } from './client-message.js';
import type { TopicAuthorizer } from './topic-authorizer.js';
import type { TopicHub, TopicSubscriber } from './topic-hub.js';

export const CloseCode = {
  goingAway: 1001,
  policyViolation: 1008,
  tryAgainLater: 1013,
  /** Application range: not (or no longer) authenticated; the client should sign in again. */
  unauthorized: 4401,
} as const;

export interface ConnectionLimits {
  /** Time to send the `auth` message after connecting. */
  authTimeoutMs: number;
  maxTopics: number;
  /** Messages a client may send per window before it is disconnected. */
  maxMessagesPerWindow: number;
  messageWindowMs: number;
  /** Unsent bytes beyond which a socket that does not read is dropped. */
  maxBufferedBytes: number;
}

export const DEFAULT_LIMITS: ConnectionLimits = {
  authTimeoutMs: 5_000,
  maxTopics: 100,
  maxMessagesPerWindow: 60,
  messageWindowMs: 10_000,
  maxBufferedBytes: 4 * 1024 * 1024,
};

export interface ConnectionContext {
  sessions: SessionResolver;
  authorizer: TopicAuthorizer;
  hub: TopicHub;
  logger: Logger;
  limits: ConnectionLimits;
}

/**
 * One browser socket: it must authenticate with its first message (the token never appears in
 * a URL, where proxies and logs would keep it), then subscribes to topics it may see. Messages
 * are handled one at a time, in order, so a `subscribe` sent right behind `auth` waits for it.
 */
export class RealtimeConnection implements TopicSubscriber {
  private session: VerifiedSession | undefined;
  private alive = true;
  private closed = false;
  private queue: Promise<void> = Promise.resolve();
  private readonly authTimer: NodeJS.Timeout;
  private expiryTimer: NodeJS.Timeout | undefined;
  private windowStart = Date.now();
  private windowCount = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly context: ConnectionContext,
    private readonly requestId: string,
  ) {
    this.authTimer = setTimeout(() => this.close(CloseCode.unauthorized, 'Authentication required'), context.limits.authTimeoutMs);
    socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    socket.on('pong', () => (this.alive = true));
    socket.on('close', () => this.dispose());
    socket.on('error', (error) => context.logger.debug({ err: error, requestId }, 'websocket error'));
  }

  get userId(): string | undefined {
    return this.session?.userId;
  }

  get sessionId(): string | undefined {
    return this.session?.sessionId;
  }

  deliver(frame: Buffer): void {
    if (!this.session || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > this.context.limits.maxBufferedBytes) {
      // A client that stopped reading: drop it rather than hold its backlog in memory.
      this.socket.terminate();
      return;
    }
    this.socket.send(frame, { binary: false });
  }

  /** Heartbeat: false when the previous ping went unanswered (the socket is then terminated). */
  ping(): boolean {
    if (!this.alive) {
      this.socket.terminate();
      return false;
    }
    this.alive = false;
    this.socket.ping();
    return true;
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close(code, reason);
    this.dispose();
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    if (this.overRate()) return this.close(CloseCode.policyViolation, 'Too many messages');
    const parsed = parseClientMessage(data, isBinary);
    if (!parsed.ok) {
      if (parsed.fatal) return this.close(this.session ? CloseCode.policyViolation : CloseCode.unauthorized, parsed.reason);
      return this.reply({ type: 'error', message: parsed.reason });
    }
    const message = parsed.message;
    this.queue = this.queue
      .then(() => (this.closed ? undefined : this.handle(message)))
      .catch((error: unknown) => {
        this.context.logger.error({ err: error, requestId: this.requestId }, 'websocket message failed');
        this.close(CloseCode.tryAgainLater, 'Internal error');
      });
  }

  private async handle(message: ClientMessage): Promise<void> {
    if (message.type === 'auth') return this.authenticate(message.token);
    if (!this.session) return this.close(CloseCode.unauthorized, 'Authentication required');
    switch (message.type) {
      case 'subscribe':
        return this.subscribe(message.topic);
      case 'unsubscribe':
        return this.unsubscribe(message.topic);
      case 'ping':
        return this.reply({ type: 'pong' });
    }
  }

  private async authenticate(token: string): Promise<void> {
    if (this.session) return this.reply({ type: 'error', message: 'Already authenticated' });
    let session: VerifiedSession | null;
    try {
      session = await this.context.sessions.resolve(token, this.requestId);
    } catch (error) {
      if (error instanceof SessionCheckUnavailableError) return this.close(CloseCode.tryAgainLater, 'Authentication unavailable');
      throw error;
    }
    if (this.closed) return;
    if (!session) return this.close(CloseCode.unauthorized, 'Invalid or expired session');
    clearTimeout(this.authTimer);
    this.session = session;
    this.context.hub.add(this);
    const remaining = session.expiresAt - Date.now();
    // setTimeout's limit is ~24.8 days; sessions beyond it are caught by revocation events.
    if (Number.isFinite(remaining) && remaining < 2 ** 31 - 1) {
      this.expiryTimer = setTimeout(() => this.close(CloseCode.unauthorized, 'Session expired'), remaining);
    }
    this.reply({ type: 'authenticated', userId: session.userId });
  }

  private async subscribe(raw: string): Promise<void> {
    const topic = Realtime.parseTopic(raw);
    if (!topic) return this.reply({ type: 'error', message: 'Unknown topic', topic: raw });
    const name = Realtime.formatTopic(topic);
    const { hub, limits, authorizer } = this.context;
    if (hub.topicCount(this) >= limits.maxTopics) return this.reply({ type: 'error', message: 'Too many subscriptions', topic: raw });
    if (!(await authorizer.canSubscribe(this.session!.userId, topic, this.requestId))) {
      return this.reply({ type: 'error', message: 'Not allowed', topic: raw });
    }
    if (this.closed) return;
    hub.join(this, name);
    this.reply({ type: 'subscribed', topic: name });
  }

  private unsubscribe(raw: string): void {
    const topic = Realtime.parseTopic(raw);
    if (!topic) return this.reply({ type: 'error', message: 'Unknown topic', topic: raw });
    const name = Realtime.formatTopic(topic);
    this.context.hub.leave(this, name);
    this.reply({ type: 'unsubscribed', topic: name });
  }

  notify(message: Record<string, unknown>): void {
    this.reply(message);
  }

  private reply(message: Record<string, unknown>): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private overRate(): boolean {
    const now = Date.now();
    if (now - this.windowStart > this.context.limits.messageWindowMs) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    return ++this.windowCount > this.context.limits.maxMessagesPerWindow;
  }

  private dispose(): void {
    this.closed = true;
    clearTimeout(this.authTimer);
    clearTimeout(this.expiryTimer);
    this.context.hub.remove(this);
  }
}
