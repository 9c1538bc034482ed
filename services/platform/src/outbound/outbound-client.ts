import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { Agent, type AgentOptions, request as httpsRequest, type RequestOptions } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { bareHost, OutboundAddressError, OutboundAddressGuard, type OutboundAddressPolicy } from './outbound-address.js';

export interface OutboundRequestInit {
  method: string;
  headers?: OutgoingHttpHeaders;
  body?: Buffer | string | null;
  /** The whole exchange (connect, TLS, send, answer) must end within this; default the client's. */
  timeoutMs?: number;
  /** Aborts the request (a shutting-down worker); it rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The answer's body, at most `maxResponseBytes` of it (the rest is not read). */
  body: string;
}

/** No answer within the request's time limit; the connection was closed. */
export class OutboundTimeoutError extends Error {
  readonly code = 'EOUTBOUNDTIMEOUT';
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.name = 'OutboundTimeoutError';
  }
}

export interface OutboundClientOptions {
  /** Default time limit of a request; 10 s. */
  timeoutMs?: number;
  /** Bytes of an answer's body kept; 16 KB. An answer is a status and a short reason, not data. */
  maxResponseBytes?: number;
  /** Certificate authorities trusted instead of the system's: tests give their fake service's certificate. */
  ca?: AgentOptions['ca'];
}

/** An https agent that connects only to addresses its guard allows (checked at connect time). */
class GuardedAgent extends Agent {
  constructor(
    private readonly guard: OutboundAddressGuard,
    options: AgentOptions,
  ) {
    super(options);
  }

  override createConnection(options: RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const host = (options.host ?? options.hostname ?? '').replace(/^\[|\]$/g, '');
    // An IP address is connected to without a lookup: check it here.
    if (isIP(host) && !this.guard.isAllowedAddress(host)) {
      const refusal = new OutboundAddressError('not-public', 'must be a public address (not loopback, private, link-local or another internal range)');
      process.nextTick(() => callback?.(refusal, undefined as unknown as Duplex));
      return undefined;
    }
    return super.createConnection({ ...options, lookup: this.guard.lookup }, callback);
  }
}

/**
 * HTTPS requests to addresses a user supplied, as DESIGN.md §9 asks: the URL and the resolved
 * addresses pass the `OutboundAddressGuard` at the time of connecting (the socket goes to the
 * address that was checked), redirects are not followed (a 3xx is an answer like any other), no
 * proxy from the environment is used (the client's own agent, never a global one), each request
 * has a time limit for the whole exchange, and only the first bytes of an answer are read.
 * Connections are kept alive per host; `close()` ends them.
 */
export class OutboundClient {
  readonly guard: OutboundAddressGuard;
  private readonly agent: GuardedAgent;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(policy: OutboundAddressPolicy | OutboundAddressGuard = {}, options: OutboundClientOptions = {}) {
    this.guard = policy instanceof OutboundAddressGuard ? policy : new OutboundAddressGuard(policy);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxResponseBytes = options.maxResponseBytes ?? 16 * 1024;
    this.agent = new GuardedAgent(this.guard, { keepAlive: true, maxFreeSockets: 16, ...(options.ca ? { ca: options.ca } : {}) });
  }

  request(target: string | URL, init: OutboundRequestInit): Promise<OutboundResponse> {
    let url: URL;
    try {
      url = this.guard.checkUrl(target);
    } catch (error) {
      return Promise.reject(error);
    }
    const timeoutMs = init.timeoutMs ?? this.timeoutMs;
    const abortReason = () => (init.signal?.reason instanceof Error ? init.signal.reason : new Error('aborted'));
    // Stopped before it started (a worker shutting down): no connection is made at all.
    if (init.signal?.aborted) return Promise.reject(abortReason());
    return new Promise<OutboundResponse>((resolve, reject) => {
      let done = false;
      const finish = (error: Error | null, response?: OutboundResponse) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        init.signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve(response!);
      };
      const req = httpsRequest({
        protocol: 'https:',
        hostname: bareHost(url),
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        method: init.method,
        headers: init.headers,
        agent: this.agent,
      });
      // Listened for first, so a request destroyed below never emits an error nobody hears.
      req.on('error', (error) => finish(error));
      const timer = setTimeout(() => {
        const error = new OutboundTimeoutError(timeoutMs);
        req.destroy(error);
        finish(error);
      }, timeoutMs);
      const onAbort = () => {
        const reason = abortReason();
        req.destroy(reason);
        finish(reason);
      };
      init.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept >= this.maxResponseBytes) return;
          chunks.push(chunk.subarray(0, this.maxResponseBytes - kept));
          kept += Math.min(chunk.length, this.maxResponseBytes - kept);
          // Enough read: the rest of a long answer is not waited for.
          if (kept >= this.maxResponseBytes) {
            finish(null, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
            req.destroy();
          }
        });
        res.on('end', () => finish(null, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (error) => finish(error));
      });
      req.end(init.body ?? undefined);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}
