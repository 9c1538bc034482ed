import type { WorkQueue } from '../../src/bus/work-queue.js';
import { openSharedInProcessWorkQueue } from '../../src/bus/work-queue-in-process.js';
import { testBusPrefix } from '../../src/testing/postgres.js';
import { workQueueContract } from './work-queue.contract.js';

// Each test gets its own in-memory queue; a replica is another handle on it, as a second service
// of the same process would hold.
const prefixes = new WeakMap<WorkQueue, string>();

workQueueContract('in-process', {
  open: async (logger) => {
    const prefix = testBusPrefix('work');
    const queue = openSharedInProcessWorkQueue(prefix, logger);
    prefixes.set(queue, prefix);
    return queue;
  },
  openReplica: async (primary, logger) => openSharedInProcessWorkQueue(prefixes.get(primary)!, logger),
  teardown: async () => undefined,
});
