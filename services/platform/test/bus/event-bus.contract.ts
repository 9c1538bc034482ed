import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import {
  type BusMessage,
  BusNoResponderError,
  BusRemoteError,
  BusTimeoutError,
  type EventBus,
  MissingReferenceError,
  UnprocessableMessageError,
} from '../../src/bus/event-bus.port.js';
import { eventStats } from '../../src/bus/event-metrics.js';
import type { BusLogger } from '../../src/bus/bus-logger.js';
import { recordingLogger } from './recording-logger.js';
import { sleep, waitFor } from './wait.js';

/** How the contract reaches an adapter. */
export interface BusUnderTest {
  /** A bus as one process of the deployment sees it. */
  open(logger: BusLogger): Promise<EventBus>;
  /** Another process of the same deployment; single-process adapters return `primary`. */
  openReplica(primary: EventBus, logger: BusLogger): Promise<EventBus>;
  /** Removes what the run left on servers (streams). */
  teardown(): Promise<void>;
}

// Long enough for a wrong extra delivery to show up, short enough to keep the suite quick.
const SETTLE_MS = 300;
const encode = (text: string) => new TextEncoder().encode(text);
const decode = (data: Uint8Array) => new TextDecoder().decode(data);

/** The behaviour every EventBus adapter must have. */
export function eventBusContract(adapter: string, target: BusUnderTest): void {
  describe(`EventBus contract: ${adapter}`, () => {
    const opened = new Set<EventBus>();
    let run = 0;
    let log = recordingLogger();

    const open = async () => {
      const bus = await target.open(log);
      opened.add(bus);
      return bus;
    };
    const replicaOf = async (bus: EventBus) => {
      const replica = await target.openReplica(bus, log);
      opened.add(replica);
      return replica;
    };
    /** A subject and durable names of this test alone: the stream outlives single tests. */
    const names = () => {
      const id = `c${++run}${randomUUID().slice(0, 8)}`;
      return { subject: `test.${id}.happened.v1`, group: (name: string) => `${name}-${id}` };
    };
    const event = (subject: string, body = 'payload', id: string = randomUUID()): BusMessage => ({
      subject,
      meta: { id, type: subject.replace(/\.v\d+$/, ''), version: 1, occurredAt: new Date().toISOString(), requestId: 'req-1' },
      data: encode(body),
    });

    afterEach(async () => {
      await Promise.all([...opened].map((bus) => bus.close()));
      opened.clear();
      log = recordingLogger();
    });
    const errorsLogged = () => log.entries.filter((entry) => entry.level === 'error');
    afterAll(() => target.teardown());

    it('delivers each event to one consumer of a durable group', async () => {
      const bus = await open();
      const replica = await replicaOf(bus);
      const { subject, group } = names();
      const received: Array<{ consumer: string; id: string }> = [];
      const consumer = (name: string) => async (message: BusMessage) => void received.push({ consumer: name, id: message.meta.id });
      await bus.consume({ durable: group('g'), subjects: [subject] }, consumer('a'));
      await replica.consume({ durable: group('g'), subjects: [subject] }, consumer('b'));

      const published = Array.from({ length: 10 }, () => event(subject));
      for (const message of published) await bus.publish(message);

      await waitFor(() => expect(received).toHaveLength(10));
      await sleep(SETTLE_MS);
      expect(received.map((r) => r.id).sort()).toEqual(published.map((m) => m.meta.id).sort());
    });

    it('delivers each event to every durable group', async () => {
      const bus = await open();
      const { subject, group } = names();
      const seen: string[] = [];
      await bus.consume({ durable: group('search'), subjects: [subject] }, async () => void seen.push('search'));
      await bus.consume({ durable: group('notifications'), subjects: [subject] }, async () => void seen.push('notifications'));

      await bus.publish(event(subject));

      await waitFor(() => expect(seen.sort()).toEqual(['notifications', 'search']));
      await sleep(SETTLE_MS);
      expect(seen).toHaveLength(2);
    });

    it('hands the subject, metadata and payload to the handler', async () => {
      const bus = await open();
      const { subject, group } = names();
      const sent = event(subject, 'hello');
      sent.meta.actorUserId = randomUUID();
      const received: BusMessage[] = [];
      await bus.consume({ durable: group('g'), subjects: [subject.replace(/\.v1$/, '.*')] }, async (m) => void received.push(m));

      await bus.publish(sent);

      await waitFor(() => expect(received).toHaveLength(1));
      expect(received[0]!.subject).toBe(subject);
      expect(received[0]!.meta).toEqual(sent.meta);
      expect(decode(received[0]!.data)).toBe('hello');
    });

    it('runs up to `concurrency` handlers at once, across the subjects of one consumer', async () => {
      const bus = await open();
      const first = names();
      const second = names();
      let running = 0;
      let peak = 0;
      let done = 0;
      await bus.consume({ durable: first.group('g'), subjects: [first.subject, second.subject], concurrency: 2 }, async () => {
        peak = Math.max(peak, ++running);
        await sleep(60);
        running--;
        done++;
      });

      for (let i = 0; i < 3; i++) {
        await bus.publish(event(first.subject));
        await bus.publish(event(second.subject));
      }

      await waitFor(() => expect(done).toBe(6));
      expect(peak).toBe(2);
    });

    it('redelivers after a handler failure, then succeeds', async () => {
      const bus = await open();
      const { subject, group } = names();
      let attempts = 0;
      let succeeded = 0;
      await bus.consume({ durable: group('g'), subjects: [subject], backoffMs: [50] }, async () => {
        attempts++;
        if (attempts === 1) throw new Error('database unavailable');
        succeeded++;
      });

      await bus.publish(event(subject));

      await waitFor(() => expect(succeeded).toBe(1));
      await sleep(SETTLE_MS);
      expect(attempts).toBe(2);
    });

    it('gives an event up after maxDeliver attempts', async () => {
      const bus = await open();
      const { subject, group } = names();
      let attempts = 0;
      await bus.consume({ durable: group('g'), subjects: [subject], maxDeliver: 3, backoffMs: [20, 40] }, async () => {
        attempts++;
        throw new Error('always failing');
      });

      await bus.publish(event(subject));

      await waitFor(() => expect(attempts).toBe(3));
      await sleep(SETTLE_MS);
      expect(attempts).toBe(3);
      expect(errorsLogged()).toEqual([expect.objectContaining({ message: expect.stringMatching(/last delivery/) })]);
      expect(errorsLogged()[0]!.context).toMatchObject({ subject, attempts: 3 });
    });

    it('retries an event for as long as a dependency is down, pausing the group, and logs the outage once', async () => {
      const bus = await open();
      const { subject, group } = names();
      let attempts = 0;
      const handled: string[] = [];
      await bus.consume({ durable: group('g'), subjects: [subject], maxDeliver: 2, backoffMs: [20], outageBackoffMaxMs: 40 }, async (message) => {
        attempts++;
        // The database is unreachable for the first 8 tries: far more than maxDeliver.
        if (attempts <= 8) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        handled.push(message.meta.id);
      });

      const first = event(subject);
      const second = event(subject);
      await bus.publish(first);
      await bus.publish(second);

      await waitFor(() => expect(handled.sort()).toEqual([first.meta.id, second.meta.id].sort()), 10_000);
      await sleep(SETTLE_MS);
      expect(handled).toHaveLength(2);
      expect(errorsLogged()).toEqual([]);
      const paused = log.entries.filter((entry) => entry.message.includes('event handling paused'));
      const resumed = log.entries.filter((entry) => entry.message.includes('event handling resumed'));
      expect(paused).toHaveLength(1);
      expect(resumed).toHaveLength(1);
      expect(resumed[0]!.context).toMatchObject({ deferred: expect.any(Number) });
    });

    it('tries an event that names something unknown again, with a growing delay, until the reference comes', async () => {
      const bus = await open();
      const { subject, group } = names();
      const known = new Set<string>();
      const tries: number[] = [];
      const handled: string[] = [];
      await bus.consume(
        { durable: group('g'), subjects: [subject], maxDeliver: 2, backoffMs: [20], missingReference: { maxAttempts: 10, firstDelayMs: 40, maxDelayMs: 400 } },
        async (message) => {
          tries.push(Date.now());
          const reference = decode(message.data);
          if (!known.has(reference)) throw new MissingReferenceError('timeline', reference);
          handled.push(message.meta.id);
        },
      );

      const comment = event(subject, 'timeline-1');
      await bus.publish(comment);
      // Far more tries than maxDeliver: a missing reference is not a failure of the handler.
      await waitFor(() => expect(tries.length).toBeGreaterThanOrEqual(4), 10_000);
      expect(handled).toEqual([]);
      known.add('timeline-1');

      await waitFor(() => expect(handled).toEqual([comment.meta.id]), 10_000);
      const gaps = tries.slice(1).map((at, i) => at - tries[i]!);
      // 40, 80, 160 ms: the delay grows.
      expect(gaps[0]).toBeGreaterThanOrEqual(30);
      expect(gaps[2]).toBeGreaterThanOrEqual(140);
      expect(errorsLogged()).toEqual([]);
      const retried = log.entries.filter((entry) => entry.message.includes('not known here yet'));
      expect(retried.length).toBe(tries.length - 1);
      expect(retried[0]!.context).toMatchObject({ group: group('g'), subject, eventId: comment.meta.id, missing: 'MissingReferenceError: timeline timeline-1 is not known here yet' });
      expect(eventStats.redeliveries()).toContainEqual({ group: group('g'), reason: 'missing_reference', count: tries.length - 1 });
    });

    it('keeps an event whose reference never comes as a dead letter after its last try, and counts it pending until then', async () => {
      const bus = await open();
      const { subject, group } = names();
      let tries = 0;
      await bus.consume(
        { durable: group('g'), subjects: [subject], missingReference: { maxAttempts: 4, firstDelayMs: 150, maxDelayMs: 150 } },
        async (message) => {
          tries++;
          throw new MissingReferenceError('user', decode(message.data));
        },
      );

      await bus.publish(event(subject, 'someone'));
      await waitFor(() => expect(tries).toBeGreaterThanOrEqual(2), 10_000);
      const waiting = (await eventStats.lag()).find((lag) => lag.group === group('g'));
      expect(waiting).toMatchObject({ pending: 1 });
      expect(waiting!.oldestPendingSeconds).toBeGreaterThan(0);

      await waitFor(() => expect(errorsLogged()).toHaveLength(1), 10_000);
      await sleep(SETTLE_MS);
      expect(tries).toBe(4);
      expect(errorsLogged()[0]).toMatchObject({ message: expect.stringMatching(/still names something unknown/) });
      expect(errorsLogged()[0]!.context).toMatchObject({ subject, tries: 4 });
      await waitFor(async () => expect((await eventStats.lag()).find((lag) => lag.group === group('g'))).toMatchObject({ pending: 0, oldestPendingSeconds: 0 }), 10_000);
    });

    it('gives an unprocessable event up at once', async () => {
      const bus = await open();
      const { subject, group } = names();
      let attempts = 0;
      await bus.consume({ durable: group('g'), subjects: [subject], backoffMs: [20] }, async () => {
        attempts++;
        throw new UnprocessableMessageError('does not decode');
      });

      await bus.publish(event(subject));

      await waitFor(() => expect(attempts).toBe(1));
      await sleep(SETTLE_MS);
      expect(attempts).toBe(1);
      expect(errorsLogged()).toEqual([expect.objectContaining({ message: expect.stringMatching(/cannot be processed/) })]);
    });

    it('drops a re-published event with the same id', async () => {
      const bus = await open();
      const { subject, group } = names();
      const ids: string[] = [];
      await bus.consume({ durable: group('g'), subjects: [subject] }, async (m) => void ids.push(m.meta.id));

      const message = event(subject);
      await bus.publish(message);
      await bus.publish({ ...message, data: encode('a re-send after a crash') });
      await bus.publish(event(subject));

      await waitFor(() => expect(ids).toHaveLength(2));
      await sleep(SETTLE_MS);
      expect(ids).toHaveLength(2);
      expect(ids[0]).toBe(message.meta.id);
    });

    it('delivers events published before the group attached', async () => {
      const bus = await open();
      const { subject, group } = names();
      const first = event(subject);
      const second = event(subject);
      await bus.publish(first);
      await bus.publish(second);

      const ids: string[] = [];
      await bus.consume({ durable: group('late'), subjects: [subject] }, async (m) => void ids.push(m.meta.id));

      await waitFor(() => expect(ids).toEqual([first.meta.id, second.meta.id]));
    });

    it('broadcasts to every live subscriber, and shows them live domain events', async () => {
      const bus = await open();
      const replica = await replicaOf(bus);
      const { subject } = names();
      const seen: string[] = [];
      await bus.subscribe(subject, (m) => void seen.push(`a:${decode(m.data)}`));
      const sub = await replica.subscribe(subject.replace(/happened\.v1$/, '>'), (m) => void seen.push(`b:${decode(m.data)}`));

      await bus.broadcast(event(subject, 'progress 40%'));
      await waitFor(() => expect(seen.sort()).toEqual(['a:progress 40%', 'b:progress 40%']));

      await sub.unsubscribe();
      await bus.publish(event(subject, 'session revoked'));
      await waitFor(() => expect(seen).toContain('a:session revoked'));
      await sleep(SETTLE_MS);
      expect(seen).toHaveLength(3);
    });

    it('answers a request from one responder of a queue group', async () => {
      const bus = await open();
      const replica = await replicaOf(bus);
      const { subject } = names();
      const rpc = `rpc.${subject}`;
      const calls: string[] = [];
      const responder = (name: string) => async (data: Uint8Array, context: { requestId?: string }) => {
        calls.push(`${name}:${context.requestId}`);
        return encode(`${decode(data)} → ok`);
      };
      await bus.respond(rpc, 'auth', responder('a'));
      await replica.respond(rpc, 'auth', responder('b'));

      for (let i = 0; i < 4; i++) {
        const reply = await bus.request(rpc, encode(`check ${i}`), { timeoutMs: 2_000, requestId: `req-${i}` });
        expect(decode(reply)).toBe(`check ${i} → ok`);
      }
      expect(calls).toHaveLength(4);
      expect(calls.map((c) => c.split(':')[1])).toEqual(['req-0', 'req-1', 'req-2', 'req-3']);
    });

    it('fails a request clearly: no responder, timeout, responder error', async () => {
      const bus = await open();
      const { subject } = names();

      await expect(bus.request(`rpc.${subject}.nobody`, encode('x'), { timeoutMs: 1_000 })).rejects.toBeInstanceOf(
        BusNoResponderError,
      );

      await bus.respond(`rpc.${subject}.slow`, 'slow', async () => {
        await sleep(500);
        return encode('late');
      });
      const started = Date.now();
      await expect(bus.request(`rpc.${subject}.slow`, encode('x'), { timeoutMs: 100 })).rejects.toBeInstanceOf(
        BusTimeoutError,
      );
      expect(Date.now() - started).toBeLessThan(450);

      await bus.respond(`rpc.${subject}.broken`, 'broken', async () => {
        throw new Error('session store down');
      });
      await expect(bus.request(`rpc.${subject}.broken`, encode('x'), { timeoutMs: 1_000 })).rejects.toThrow(
        new BusRemoteError(`rpc.${subject}.broken`, 'session store down'),
      );
    });

    it('waits for in-flight handlers on close, and their events stay handled', async () => {
      const bus = await open();
      const { subject, group } = names();
      let started = false;
      let finished = false;
      await bus.consume({ durable: group('g'), subjects: [subject] }, async () => {
        started = true;
        await sleep(300);
        finished = true;
      });
      await bus.publish(event(subject));
      await waitFor(() => started);

      await bus.close();
      opened.delete(bus);
      expect(finished).toBe(true);

      // A successor process of the same group must not get the event again.
      const successor = await open();
      let redelivered = 0;
      await successor.consume({ durable: group('g'), subjects: [subject] }, async () => void redelivered++);
      await sleep(SETTLE_MS);
      expect(redelivered).toBe(0);
    });
  });
}
