import { BusNoResponderError, BusTimeoutError, MissingReferenceError, UnprocessableMessageError } from './event-bus.port.js';

/**
 * Why a handler failed, which decides what happens to the event:
 *
 * - `infrastructure`: the database, NATS or another service was unavailable. Nothing is wrong with
 *   the event; it is retried, with a capped back-off, for as long as the outage lasts.
 * - `content`: the handler failed on this event (a bug, a constraint the event breaks). Retried a
 *   bounded number of times, then set aside as a dead letter, visible and replayable.
 * - `unprocessable`: the event can never be handled (does not decode, no handler): a dead letter at once.
 * - `missing_reference`: the event names something this service has not heard of yet (its copy is
 *   fed by another subject that is behind): retried with a growing delay, then a dead letter.
 */
export type FailureKind = 'infrastructure' | 'content' | 'unprocessable' | 'missing_reference';

/** Node and pg connection failures, and Postgres's "connection exception" / "operator intervention" classes. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
const PG_UNAVAILABLE = /^(08|57P|53)/; // connection exception, admin/crash shutdown, cannot connect now, insufficient resources
const UNAVAILABLE_TEXT = [
  'Connection terminated',
  'connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection is closed',
  'the database system is starting up',
  'the database system is shutting down',
  'terminating connection due to administrator command',
  'CONNECTION_CLOSED',
  'Driver not Connected',
];

export function failureKind(error: unknown): FailureKind {
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    if (e instanceof UnprocessableMessageError) return 'unprocessable';
    if (e instanceof MissingReferenceError) return 'missing_reference';
    if (e instanceof BusTimeoutError || e instanceof BusNoResponderError) return 'infrastructure';
    if (typeof e !== 'object') break;
    const record = e as { code?: unknown; status?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; getStatus?: () => unknown };
    const code = typeof record.code === 'string' ? record.code : '';
    if (NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code)) return 'infrastructure';
    // A 503 from a peer (an access check the timelines service could not answer).
    const status = typeof record.getStatus === 'function' ? record.getStatus() : record.status;
    if (status === 503 || status === 502 || status === 504) return 'infrastructure';
    const message = typeof record.message === 'string' ? record.message : '';
    if (UNAVAILABLE_TEXT.some((text) => message.includes(text))) return 'infrastructure';
    e = record.driverError ?? record.cause;
  }
  return 'content';
}

/**
 * The wait before retrying an event that failed for an infrastructure reason, after `failures`
 * consecutive such failures of its consumer: 0.5 s doubling to at most `maxMs` (30 s).
 */
export function outageBackoffMs(failures: number, maxMs = 30_000): number {
  return Math.min(maxMs, 500 * 2 ** Math.max(0, Math.min(failures - 1, 16)));
}

/**
 * One consumer's view of an outage: while it lasts, events are deferred instead of failing one by
 * one, and it is logged twice in all (when it starts, and when it ends with how many deliveries
 * were deferred), never once per event.
 */
export class OutageGate {
  private failures = 0;
  private pausedUntil = 0;
  private deferred = 0;
  private startedAt = 0;

  constructor(
    private readonly onStart: (error: unknown) => void,
    private readonly onEnd: (summary: { seconds: number; deferred: number }) => void,
    private readonly maxMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Ms to wait before trying again, or 0 when events may be handled now. */
  waitMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  get inOutage(): boolean {
    return this.failures > 0;
  }

  /** An event was put back without being tried, because the consumer is paused. */
  defer(): void {
    this.deferred++;
  }

  /** A handler failed for an infrastructure reason; the delay before that event is tried again. */
  failed(error: unknown): number {
    if (this.failures === 0) {
      this.startedAt = this.now();
      this.deferred = 0;
      this.onStart(error);
    }
    this.failures++;
    this.deferred++;
    const delay = outageBackoffMs(this.failures, this.maxMs);
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + delay);
    return delay;
  }

  /** A handler succeeded: an outage in progress is over. */
  succeeded(): void {
    if (this.failures === 0) return;
    this.onEnd({ seconds: (this.now() - this.startedAt) / 1000, deferred: this.deferred });
    this.failures = 0;
    this.pausedUntil = 0;
  }
}
