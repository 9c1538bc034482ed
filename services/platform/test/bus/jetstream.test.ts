import { deleteBusStreams, testNatsUrl } from '../../src/bus/bus-testing.js';
import { JetStreamEventBus } from '../../src/bus/jetstream-event-bus.js';
import { testBusPrefix } from '../../src/testing/postgres.js';
import { eventBusContract } from './event-bus.contract.js';

const prefix = testBusPrefix('jetstream');

eventBusContract('JetStream', {
  open: (logger) => JetStreamEventBus.connect({ servers: testNatsUrl(), prefix, name: 'contract-test', logger }),
  openReplica: (_primary, logger) =>
    JetStreamEventBus.connect({ servers: testNatsUrl(), prefix, name: 'contract-test-replica', logger }),
  teardown: () => deleteBusStreams(testNatsUrl(), prefix),
});
