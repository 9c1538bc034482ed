import type { SocketLike } from '../lib/realtime';

/**
 * A WebSocket that never touches the network. Tests open it (`open()`), answer the auth message
 * (`authenticate()`), push server messages (`receive()`) and read what the app sent (`sent`).
 */
export class FakeWebSocket implements SocketLike {
  static instances: FakeWebSocket[] = [];
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;

  readyState = FakeWebSocket.CONNECTING;
  readonly sent: Record<string, unknown>[] = [];
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }

  static latest(): FakeWebSocket | undefined {
    return FakeWebSocket.instances[FakeWebSocket.instances.length - 1];
  }

  static reset(): void {
    FakeWebSocket.instances = [];
  }

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close(code = 1000): void {
    if (this.readyState === FakeWebSocket.CLOSED) return;
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.({ code } as CloseEvent);
  }

  open(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event('open'));
  }

  authenticate(userId = 'u1'): void {
    this.receive({ type: 'authenticated', userId });
  }

  /** Opens and authenticates. */
  connect(): void {
    this.open();
    this.authenticate();
  }

  receive(message: Record<string, unknown>): void {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }

  fail(code = 1006): void {
    this.onerror?.(new Event('error'));
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.({ code } as CloseEvent);
  }

  /** Every topic subscribed and not unsubscribed since. */
  topics(): string[] {
    const topics = new Set<string>();
    for (const message of this.sent) {
      if (message.type === 'subscribe') topics.add(String(message.topic));
      if (message.type === 'unsubscribe') topics.delete(String(message.topic));
    }
    return [...topics];
  }
}
