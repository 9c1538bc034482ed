import { describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, nanos } from '@nats-io/transport-node';
import { testNatsUrl } from '../../src/bus/bus-testing.js';
import { BusWire, deleteBusStreams, ensureEventStream } from '../../src/bus/jetstream-streams.js';
import { testBusPrefix } from '../../src/testing/postgres.js';
import { recordingLogger } from './recording-logger.js';

const DAY = 86_400_000;

describe('JetStream stream settings', () => {
  it('applies its settings on creation only: an operator’s change survives a restart, and is logged, unless apply is asked', async () => {
    const prefix = testBusPrefix('streams');
    const wire = new BusWire(prefix);
    const nc = await connect({ servers: testNatsUrl() });
    try {
      const jsm = await jetstreamManager(nc);
      await ensureEventStream(jsm, wire, { maxAgeMs: 7 * DAY });
      const created = (await jsm.streams.info(wire.eventStream)).config;
      expect(created.max_age).toBe(nanos(7 * DAY));

      // The operator keeps events for 30 days.
      await jsm.streams.update(wire.eventStream, { ...created, max_age: nanos(30 * DAY) });
      const logger = recordingLogger();
      await ensureEventStream(jsm, wire, { maxAgeMs: 7 * DAY }, logger);
      expect((await jsm.streams.info(wire.eventStream)).config.max_age).toBe(nanos(30 * DAY));
      expect(logger.entries).toEqual([
        expect.objectContaining({ level: 'warn', context: expect.objectContaining({ differences: [{ setting: 'max_age', stream: nanos(30 * DAY), configured: nanos(7 * DAY) }] }) }),
      ]);

      // Asked to, the configured value is applied.
      await ensureEventStream(jsm, wire, { maxAgeMs: 14 * DAY, settings: 'apply' }, logger);
      expect((await jsm.streams.info(wire.eventStream)).config.max_age).toBe(nanos(14 * DAY));

      // Its subjects are this code's contract: one removed by hand comes back.
      await jsm.streams.update(wire.eventStream, { ...(await jsm.streams.info(wire.eventStream)).config, subjects: [`${prefix}.other.>`] });
      await ensureEventStream(jsm, wire, { maxAgeMs: 14 * DAY });
      expect((await jsm.streams.info(wire.eventStream)).config.subjects).toEqual([`${prefix}.other.>`, `${wire.events}.>`]);
    } finally {
      await nc.close();
      await deleteBusStreams(testNatsUrl(), prefix);
    }
  });
});
