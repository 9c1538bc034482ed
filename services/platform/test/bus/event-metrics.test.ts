import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { deleteBusStreams, testNatsUrl } from '../../src/bus/bus-testing.js';
import { DeadLetterAdmin } from '../../src/bus/dead-letter-admin.js';
import type { BusMessage, EventBus } from '../../src/bus/event-bus.port.js';
import { InProcessEventBus } from '../../src/bus/in-process-event-bus.js';
import { JetStreamEventBus } from '../../src/bus/jetstream-event-bus.js';
import { createMetricsRegistry } from '../../src/http/metrics.js';
import { testBusPrefix } from '../../src/testing/postgres.js';
import { recordingLogger } from './recording-logger.js';
import { sleep, waitFor } from './wait.js';

const prefix = testBusPrefix('eventmetrics');
const event = (subject: string): BusMessage => ({
  subject,
  meta: { id: randomUUID(), type: subject.replace(/\.v\d+$/, ''), version: 1, occurredAt: new Date().toISOString() },
  data: new TextEncoder().encode('x'),
});

/** The value of one series in a Prometheus text exposition. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe.each([
  ['JetStream', () => JetStreamEventBus.connect({ servers: testNatsUrl(), prefix, name: 'metrics-test', logger: recordingLogger() })],
  ['in-process', async () => new InProcessEventBus({ logger: recordingLogger() })],
])('consumer lag in /metrics: %s', (_adapter, open: () => Promise<EventBus>) => {
  afterAll(() => deleteBusStreams(testNatsUrl(), prefix));

  it('shows pending events and the oldest one\'s age while a group is behind, and 0 once it caught up', async () => {
    const bus = await open();
    try {
      const id = randomUUID().slice(0, 8);
      const subject = `test.m${id}.happened.v1`;
      const group = `lagging-${id}`;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      await bus.consume({ durable: group, subjects: [subject] }, () => gate);
      for (let i = 0; i < 3; i++) await bus.publish(event(subject));
      await sleep(1100);

      const registry = createMetricsRegistry('test');
      await waitFor(async () => expect(sample(await registry.metrics(), 'events_pending', { group })).toBe(3), 5_000);
      const text = await registry.metrics();
      expect(sample(text, 'events_oldest_pending_seconds', { group })).toBeGreaterThanOrEqual(1);

      release();
      await waitFor(async () => {
        await sleep(1100); // one look at the bus per second
        const after = await registry.metrics();
        expect(sample(after, 'events_pending', { group })).toBe(0);
        expect(sample(after, 'events_oldest_pending_seconds', { group })).toBe(0);
      }, 10_000);
      expect(text).toMatch(/# TYPE events_redeliveries_total counter/);
      expect(text).toMatch(/# TYPE events_dead_letters gauge/);
    } finally {
      await bus.close();
    }
  }, 30_000);
});

describe('a dead letter on JetStream', () => {
  afterAll(() => deleteBusStreams(testNatsUrl(), prefix));

  it('is terminated for good: it does not come back after the ack wait', async () => {
    const bus = await JetStreamEventBus.connect({ servers: testNatsUrl(), prefix, name: 'metrics-test', logger: recordingLogger(), ackWaitMs: 1000 });
    const admin = await DeadLetterAdmin.open(testNatsUrl(), prefix);
    try {
      const subject = `test.t${randomUUID().slice(0, 8)}.happened.v1`;
      const group = `terminated-${randomUUID().slice(0, 8)}`;
      let attempts = 0;
      await bus.consume({ durable: group, subjects: [subject], maxDeliver: 2, backoffMs: [20] }, async () => {
        attempts++;
        throw new Error('a bug in the handler');
      });
      await bus.publish(event(subject));
      await waitFor(async () => expect(await admin.list({ group })).toHaveLength(1), 10_000);
      await sleep(3000); // three ack waits
      expect(attempts).toBe(2);
      expect(await admin.list({ group })).toHaveLength(1);
    } finally {
      await admin.close();
      await bus.close();
    }
  }, 30_000);
});
