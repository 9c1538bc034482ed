import { useEffect, useEffectEvent } from 'react';
import { getAuthToken } from './auth-token';

/**
 * The realtime socket at /ws (gateway README, "Realtime: /ws"): one connection per page, shared
 * by every screen. The token goes in the first message, never in the URL; topics are subscribed
 * with reference counts, so two screens watching one timeline cost one subscription, and every
 * subscription is sent again after a reconnect.
 */

/** A message from the server. Timeline messages carry the `timelineId` they belong to. */
export interface RealtimeMessage {
  type: string;
  timelineId?: string;
  [field: string]: unknown;
}

export type RealtimeListener = (message: RealtimeMessage) => void;

/** The part of the browser's WebSocket the client uses, so tests can hand in a fake. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
}

export interface RealtimeClientOptions {
  url: () => string;
  getToken: () => string | null;
  createSocket?: (url: string) => SocketLike;
  /** Told once, the first time the socket cannot be opened or fails before it is ready. */
  onConnectionFailure?: (reason: 'error' | 'construct') => void;
  /** Milliseconds before reconnect attempt `attempt` (0-based). */
  reconnectDelay?: (attempt: number) => number;
  /** Closes an idle socket (no topics left) after this many milliseconds. */
  idleCloseMs?: number;
}

const OPEN = 1;
/** The gateway's answer to a missing, invalid or revoked token: signing in again is the fix. */
const CLOSE_NOT_AUTHENTICATED = 4401;
const MAX_RECONNECT_DELAY = 30_000;

/** 1 s, 2 s, 4 s ... up to 30 s, with up to 20 % jitter so clients do not reconnect in step. */
export function defaultReconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(1000 * 2 ** attempt, MAX_RECONNECT_DELAY);
  return Math.round(base * (0.8 + 0.2 * random()));
}

export const timelineTopic = (timelineId: string) => `timeline:${timelineId}`;

/** A person's own topic (their notifications); the gateway lets only that person subscribe. */
export const userTopic = (userId: string) => `user:${userId.toLowerCase()}`;

function isMessage(value: unknown): value is RealtimeMessage {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

export class RealtimeClient {
  private socket: SocketLike | null = null;
  private authenticated = false;
  /** Who the socket is signed in as: messages without a timeline are theirs. */
  private userId: string | null = null;
  private readonly topics = new Map<string, Set<RealtimeListener>>();
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private failureReported = false;
  private readonly options: Required<Omit<RealtimeClientOptions, 'onConnectionFailure'>> &
    Pick<RealtimeClientOptions, 'onConnectionFailure'>;

  constructor(options: RealtimeClientOptions) {
    this.options = {
      createSocket: (url) => new WebSocket(url),
      reconnectDelay: (attempt) => defaultReconnectDelay(attempt),
      idleCloseMs: 10_000,
      ...options,
    };
  }

  /** Listens to `topic`; the returned function stops listening. */
  subscribe(topic: string, listener: RealtimeListener): () => void {
    clearTimeout(this.idleTimer);
    let listeners = this.topics.get(topic);
    if (!listeners) {
      listeners = new Set();
      this.topics.set(topic, listeners);
      if (this.authenticated) this.send({ type: 'subscribe', topic });
    }
    listeners.add(listener);
    this.ensureConnected();

    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const current = this.topics.get(topic);
      if (!current) return;
      current.delete(listener);
      if (current.size > 0) return;
      this.topics.delete(topic);
      if (this.authenticated) this.send({ type: 'unsubscribe', topic });
      if (this.topics.size === 0) this.scheduleIdleClose();
    };
  }

  /** Sends a message on the ready socket; without one it only warns (spec 001, section 7). */
  send(message: Record<string, unknown>): boolean {
    const ready = this.socket?.readyState === OPEN && (this.authenticated || message.type === 'auth');
    if (!ready || !this.socket) {
      console.warn('Realtime socket is not connected; message not sent', message.type);
      return false;
    }
    this.socket.send(JSON.stringify(message));
    return true;
  }

  get connected(): boolean {
    return this.authenticated;
  }

  /** Closes the socket and forgets every topic (signing out). */
  close(): void {
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.idleTimer);
    this.topics.clear();
    this.dropSocket();
  }

  private ensureConnected(): void {
    if (this.socket || this.reconnectTimer !== undefined) return;
    this.connect();
  }

  private connect(): void {
    this.reconnectTimer = undefined;
    if (this.topics.size === 0) return;
    if (!this.options.getToken()) {
      console.warn('Realtime socket needs a signed-in user; not connecting');
      return;
    }
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url());
    } catch (error) {
      console.error('Could not open the realtime socket', error);
      this.reportFailure('construct');
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.authenticated = false;

    socket.onopen = () => {
      const token = this.options.getToken();
      if (!token) {
        socket.close(1000, 'signed out');
        return;
      }
      // The gateway expects the token as the very first message.
      socket.send(JSON.stringify({ type: 'auth', token }));
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => {
      if (!this.authenticated) this.reportFailure('error');
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      const wasReady = this.authenticated;
      this.socket = null;
      this.authenticated = false;
      if (!wasReady && event.code !== CLOSE_NOT_AUTHENTICATED) this.reportFailure('error');
      if (event.code === CLOSE_NOT_AUTHENTICATED) {
        // A rejected token stays rejected; the next subscription (after signing in) tries again.
        console.warn('Realtime socket closed: not authenticated');
        return;
      }
      this.scheduleReconnect();
    };
  }

  private receive(data: unknown): void {
    let message: unknown;
    try {
      message = JSON.parse(String(data));
    } catch {
      console.warn('Realtime message is not JSON; ignored');
      return;
    }
    if (!isMessage(message)) return;
    if (message.type === 'authenticated') {
      this.authenticated = true;
      this.userId = typeof message.userId === 'string' ? message.userId : null;
      this.attempt = 0;
      for (const topic of this.topics.keys()) this.send({ type: 'subscribe', topic });
      return;
    }
    if (message.type === 'error') {
      console.warn('Realtime error', message.message, message.topic);
      return;
    }
    const topic = typeof message.timelineId === 'string' ? timelineTopic(message.timelineId) : this.userId ? userTopic(this.userId) : null;
    const listeners = topic ? this.topics.get(topic) : undefined;
    if (!listeners) return;
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch (error) {
        console.error('Realtime listener failed', error);
      }
    }
  }

  private reportFailure(reason: 'error' | 'construct'): void {
    if (this.failureReported) return;
    this.failureReported = true;
    this.options.onConnectionFailure?.(reason);
  }

  private scheduleReconnect(): void {
    if (this.topics.size === 0 || this.reconnectTimer !== undefined) return;
    const delay = this.options.reconnectDelay(this.attempt);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private scheduleIdleClose(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.topics.size > 0) return;
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
      this.dropSocket();
    }, this.options.idleCloseMs);
  }

  private dropSocket(): void {
    const socket = this.socket;
    this.socket = null;
    this.authenticated = false;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.onerror = null;
      socket.close(1000, 'done');
    }
  }
}

/** ws://host/ws, or wss:// when the page is served over https. */
export function realtimeUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}

export type RealtimeFailureHandler = (reason: 'error' | 'construct') => void;

let shared: RealtimeClient | null = null;
let failureHandler: RealtimeFailureHandler | undefined;

/** What the page does when the socket cannot connect (the app shows a toast). */
export function setRealtimeFailureHandler(handler: RealtimeFailureHandler | undefined): void {
  failureHandler = handler;
}

/** The page's one realtime client, made on first use. */
export function getRealtimeClient(): RealtimeClient {
  shared ??= new RealtimeClient({
    url: () => realtimeUrl(),
    getToken: getAuthToken,
    onConnectionFailure: (reason) => failureHandler?.(reason),
  });
  return shared;
}

/** Replaces the shared client (tests). */
export function setRealtimeClient(client: RealtimeClient | null): void {
  shared?.close();
  shared = client;
}

/**
 * Calls `onMessage` with every realtime message for the signed-in person (`user:<id>`: their
 * notifications) while the component is mounted. An empty id listens to nothing.
 */
export function useUserRealtime(userId: string | null | undefined, onMessage: RealtimeListener): void {
  const handle = useEffectEvent((message: RealtimeMessage) => onMessage(message));
  useEffect(() => {
    if (!userId) return;
    return getRealtimeClient().subscribe(userTopic(userId), (message) => handle(message));
  }, [userId]);
}

/**
 * Calls `onMessage` with every realtime message about `timelineId` while the component is
 * mounted. An empty id listens to nothing.
 */
export function useTimelineRealtime(timelineId: string | null | undefined, onMessage: RealtimeListener): void {
  const handle = useEffectEvent((message: RealtimeMessage) => onMessage(message));
  useEffect(() => {
    if (!timelineId) return;
    return getRealtimeClient().subscribe(timelineTopic(timelineId), (message) => handle(message));
  }, [timelineId]);
}
