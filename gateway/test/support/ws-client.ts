import WebSocket from 'ws';

export interface Closed {
  code: number;
  reason: string;
}

/** A `ws` client that queues what it receives, for tests that await messages in order. */
export class TestSocket {
  readonly closed: Promise<Closed>;
  private readonly inbox: unknown[] = [];
  private waiting: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.inbox.push(JSON.parse(data.toString()));
      this.wake();
    });
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    void this.closed.then(() => this.wake());
  }

  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<TestSocket> {
    const socket = new WebSocket(url, options);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new TestSocket(socket)));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`Unexpected server response: ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next message received, or an error after `timeoutMs`. */
  async next(timeoutMs = 2_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    while (this.inbox.length === 0) {
      if (this.socket.readyState === WebSocket.CLOSED) throw new Error('socket closed');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no message in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.inbox.shift() as Record<string, unknown>;
  }

  /** Resolves true if nothing arrives within `ms`. */
  async silentFor(ms: number): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.inbox.length === 0;
  }

  close(): void {
    this.socket.close();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    waiting.forEach((wake) => wake());
  }
}
