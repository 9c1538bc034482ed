import { InProcessEventBus } from '../../src/bus/in-process-event-bus.js';
import { eventBusContract } from './event-bus.contract.js';

eventBusContract('in-process', {
  open: async (logger) => new InProcessEventBus({ logger }),
  openReplica: async (primary) => primary,
  teardown: async () => undefined,
});
