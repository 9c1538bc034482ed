import { describe, expect, it } from '@jest/globals';
import { QueryFailedError } from 'typeorm';
import { BusTimeoutError, MissingReferenceError, UnprocessableMessageError } from './event-bus.port.js';
import { DEFAULT_MISSING_REFERENCE, missingReferenceDelay } from './redelivery.js';
import { failureKind, OutageGate, outageBackoffMs } from './failure-kind.js';

describe('failureKind', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['Postgres shutting down (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['Postgres starting (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a connection failure (08006)', Object.assign(new Error('x'), { code: '08006' })],
    ['too many connections (53300)', Object.assign(new Error('x'), { code: '53300' })],
    ['a pool that cannot connect', new Error('timeout exceeded when trying to connect')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a bus timeout', new BusTimeoutError('rpc.timelines.access')],
    ['a 503 from a peer', Object.assign(new Error('Timelines service unavailable'), { getStatus: () => 503 })],
    ['a wrapped driver error', new QueryFailedError('SELECT 1', [], Object.assign(new Error('x'), { code: '57P01' }))],
    ['a cause chain', new Error('outer', { cause: Object.assign(new Error('inner'), { code: 'ECONNRESET' }) })],
  ])('calls %s an infrastructure failure', (_what, error) => {
    expect(failureKind(error)).toBe('infrastructure');
  });

  it.each([
    ['a unique violation', new QueryFailedError('INSERT', [], Object.assign(new Error('duplicate key'), { code: '23505' }))],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a thrown string', 'nope'],
  ])('calls %s a content failure', (_what, error) => {
    expect(failureKind(error)).toBe('content');
  });

  it('calls an undecodable event unprocessable', () => {
    expect(failureKind(new UnprocessableMessageError('does not decode'))).toBe('unprocessable');
  });

  it('calls a reference not known yet a missing reference, also inside a cause chain', () => {
    expect(failureKind(new MissingReferenceError('timeline', 't1'))).toBe('missing_reference');
    expect(failureKind(new Error('outer', { cause: new MissingReferenceError('user', 'u1') }))).toBe('missing_reference');
  });
});

describe('missingReferenceDelay', () => {
  it('doubles from 1 s to at most 5 min, about an hour over the default 20 tries', () => {
    const delays = Array.from({ length: DEFAULT_MISSING_REFERENCE.maxAttempts - 1 }, (_, i) => missingReferenceDelay(DEFAULT_MISSING_REFERENCE, i + 1));
    expect(delays.slice(0, 4)).toEqual([1000, 2000, 4000, 8000]);
    expect(Math.max(...delays)).toBe(300_000);
    const total = delays.reduce((sum, ms) => sum + ms, 0) / 60_000;
    expect(total).toBeGreaterThan(50);
    expect(total).toBeLessThan(70);
  });
});

describe('OutageGate', () => {
  it('pauses with a doubling, capped back-off, and reports the outage once at each end', () => {
    let now = 1_000;
    const events: string[] = [];
    const gate = new OutageGate(() => events.push('start'), ({ seconds, deferred }) => events.push(`end ${seconds}s ${deferred}`), 2_000, () => now);
    expect(gate.waitMs()).toBe(0);
    expect(gate.failed(new Error('down'))).toBe(500);
    expect(gate.failed(new Error('down'))).toBe(1_000);
    expect(gate.failed(new Error('down'))).toBe(2_000);
    expect(gate.failed(new Error('down'))).toBe(2_000);
    expect(gate.waitMs()).toBe(2_000);
    gate.defer();
    now += 5_000;
    expect(gate.waitMs()).toBe(0);
    gate.succeeded();
    gate.succeeded();
    expect(events).toEqual(['start', 'end 5s 5']);
    expect(outageBackoffMs(100)).toBe(30_000);
  });
});
