import { describe, expect, it } from '@jest/globals';
import { PushBusyError, PushGate } from './push-gate.js';

const limits = { perPerson: 2, perHost: 3, waitingPerPerson: 1, waitingPerHost: 2 };
const settled = async <T>(promise: Promise<T>) => {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  promise.then(() => (state = 'resolved'), () => (state = 'rejected'));
  await new Promise((r) => setImmediate(r));
  return state;
};

describe('PushGate', () => {
  it("runs a person's pushes up to the limit, lets one more wait, and puts the rest back", async () => {
    const gate = new PushGate(limits);
    const first = await gate.enter('ana', 'a.example');
    await gate.enter('ana', 'b.example');
    const waiting = gate.enter('ana', 'c.example');
    expect(await settled(waiting)).toBe('pending');
    expect(gate.isFull('ana')).toBe(true);
    expect(gate.isFull('ben')).toBe(false);
    await expect(gate.enter('ana', 'd.example')).rejects.toEqual(new PushBusyError('person'));
    // Someone else is not held by Ana.
    expect(await settled(gate.enter('ben', 'a.example'))).toBe('resolved');
    first();
    expect(await settled(waiting)).toBe('resolved');
  });

  it('runs at most perHost pushes to one host whoever they are for', async () => {
    const gate = new PushGate(limits);
    const releases = await Promise.all(['ana', 'ben', 'cy'].map((p) => gate.enter(p, 'slow.example')));
    const waits = [gate.enter('di', 'slow.example'), gate.enter('ed', 'slow.example')];
    await expect(gate.enter('flo', 'slow.example')).rejects.toEqual(new PushBusyError('host'));
    expect(await settled(gate.enter('flo', 'fast.example'))).toBe('resolved');
    expect(gate.inFlight).toBe(4);
    releases[0]!();
    expect(await settled(waits[0]!)).toBe('resolved');
    expect(await settled(waits[1]!)).toBe('pending');
    // A release counts once.
    releases[0]!();
    expect(await settled(waits[1]!)).toBe('pending');
    releases[1]!();
    expect(await settled(waits[1]!)).toBe('resolved');
  });

  it('lets a waiting push go when its worker stops', async () => {
    const gate = new PushGate(limits);
    await gate.enter('ana', 'a.example');
    await gate.enter('ana', 'a.example');
    const stop = new AbortController();
    const waiting = gate.enter('ana', 'a.example', stop.signal);
    stop.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
    // Its waiting place is free again.
    expect(await settled(gate.enter('ana', 'a.example'))).toBe('pending');
  });
});
