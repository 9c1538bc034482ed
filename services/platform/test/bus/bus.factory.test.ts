import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { AuthEvents, Realtime, type RealtimeMessage } from '@timeliner/proto';
import { createEventBus } from '../../src/bus/bus.factory.js';
import { deleteBusStreams, testNatsUrl } from '../../src/bus/bus-testing.js';
import { decodeEvent } from '../../src/bus/event-consumer.js';
import { JetStreamEventBus } from '../../src/bus/jetstream-event-bus.js';
import { broadcastRealtime } from '../../src/bus/realtime-broadcast.js';
import { testBusPrefix } from '../../src/testing/postgres.js';
import { recordingLogger } from './recording-logger.js';
import { waitFor } from './wait.js';

describe('createEventBus', () => {
  const natsPrefix = testBusPrefix('factory');
  afterAll(() => deleteBusStreams(testNatsUrl(), natsPrefix));

  it('uses JetStream when a NATS URL is set, and says so', async () => {
    const logger = recordingLogger();
    const bus = await createEventBus({ natsUrl: testNatsUrl(), prefix: natsPrefix, name: 'factory-test', logger });
    try {
      expect(bus).toBeInstanceOf(JetStreamEventBus);
      expect(await bus.isHealthy()).toBe(true);
      expect(logger.entries).toContainEqual(expect.objectContaining({ level: 'info', message: 'Event bus: NATS JetStream' }));
    } finally {
      await bus.close();
    }
    expect(await bus.isHealthy()).toBe(false);
  });

  it('shares one in-process bus between the services of a process', async () => {
    const prefix = `solo${randomUUID().slice(0, 8)}`;
    const logger = recordingLogger();
    const media = await createEventBus({ prefix, logger });
    const gateway = await createEventBus({ prefix });
    const auth = await createEventBus({ prefix });
    expect(logger.entries[0]!.message).toMatch(/in-process/);

    const timelineId = randomUUID();
    const progress: RealtimeMessage = {
      type: 'video_processing_progress',
      timelineId,
      videoId: randomUUID(),
      progress: { stage: 'transcoding', progress: 40, message: 'Encoding 720p' },
    };
    const toBrowsers: RealtimeMessage[] = [];
    await gateway.subscribe(Realtime.timelineSubject(timelineId), (m) => void toBrowsers.push(Realtime.decode(m.data)));
    const revoked: string[] = [];
    await gateway.subscribe(AuthEvents.SessionRevoked.subject, (m) => {
      revoked.push(decodeEvent(AuthEvents.SessionRevoked, m).tokenHash);
    });

    await broadcastRealtime(media, Realtime.timelineSubject(timelineId), progress);
    await waitFor(() => expect(toBrowsers).toEqual([progress]));

    // One service closing leaves the others connected.
    await media.close();
    expect(await media.isHealthy()).toBe(false);
    expect(await gateway.isHealthy()).toBe(true);
    await auth.publish({
      subject: AuthEvents.SessionRevoked.subject,
      meta: { id: randomUUID(), type: AuthEvents.SessionRevoked.type, version: 1, occurredAt: new Date().toISOString() },
      data: new Uint8Array(),
    });
    await waitFor(() => expect(revoked).toEqual(['']));

    await Promise.all([gateway.close(), auth.close()]);
    const fresh = await createEventBus({ prefix });
    expect(await fresh.isHealthy()).toBe(true);
    await fresh.close();
  });
});
