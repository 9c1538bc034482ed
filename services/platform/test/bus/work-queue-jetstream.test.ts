import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { defineEvent, ProcessMediaJobSchema } from '@timeliner/proto';
import { testNatsUrl } from '../../src/bus/bus-testing.js';
import { deleteWorkStream, JetStreamWorkQueue } from '../../src/bus/work-queue-jetstream.js';
import { testBusPrefix } from '../../src/testing/postgres.js';
import { recordingLogger } from './recording-logger.js';
import { waitFor } from './wait.js';
import { workQueueContract } from './work-queue.contract.js';

const prefix = testBusPrefix('work');

workQueueContract('JetStream', {
  open: (logger) => JetStreamWorkQueue.connect({ servers: testNatsUrl(), prefix, name: 'work-contract', logger }),
  openReplica: (_primary, logger) => JetStreamWorkQueue.connect({ servers: testNatsUrl(), prefix, name: 'work-contract-replica', logger }),
  teardown: () => deleteWorkStream(testNatsUrl(), prefix),
});

describe('JetStream work queue: a worker dying during the last attempt', () => {
  it('runs the failure hook on the next delivery instead of losing the job silently', async () => {
    const definition = defineEvent(`test.job${randomBytes(4).toString('hex')}.run`, 1, ProcessMediaJobSchema);
    const options = { maxDeliver: 1, ackExtendMs: 200 };
    const dying = await JetStreamWorkQueue.connect({ servers: testNatsUrl(), prefix, name: 'work-dying' });
    const queue = await JetStreamWorkQueue.connect({ servers: testNatsUrl(), prefix, name: 'work-survivor' });
    try {
      // A worker takes the job for its only attempt and dies without a word (its connection drops).
      const taken: number[] = [];
      await dying.process(definition, options, {
        run: (job) => new Promise<void>((_resolve, reject) => {
          taken.push(job.attempt);
          job.signal.addEventListener('abort', () => reject(new Error('stopped')));
        }),
      });
      const id = randomUUID();
      await queue.enqueue(definition, { mediaId: id }, { id });
      await waitFor(() => expect(taken).toEqual([1]), 3_000);
      await (dying as unknown as { nc: { close(): Promise<void> } }).nc.close();

      const runs: number[] = [];
      const failures: Array<{ attempt: number; message: string }> = [];
      await queue.process(definition, options, {
        run: async (job) => void runs.push(job.attempt),
        failed: async (job, error) => void failures.push({ attempt: job.attempt, message: (error as Error).message }),
      });
      await waitFor(() => expect(failures).toHaveLength(1), 5_000);
      expect(failures[0]!.attempt).toBe(2);
      expect(runs).toEqual([]);
      await waitFor(async () => expect(await queue.isPending(definition, id)).toBe(false), 2_000);
    } finally {
      await dying.close();
      await queue.close();
    }
  });
});

describe('JetStream work queue: a job longer than the pull heartbeats', () => {
  it('completes without an error-level log line', async () => {
    const definition = defineEvent(`test.job${randomBytes(4).toString('hex')}.run`, 1, ProcessMediaJobSchema);
    const logger = recordingLogger();
    const queue = await JetStreamWorkQueue.connect({ servers: testNatsUrl(), prefix, name: 'work-long', logger });
    try {
      const done: string[] = [];
      // A fetch's idle heartbeat is half its 5 s expiry; missed ones used to end the fetch
      // with "heartbeats missed" while the job was still running.
      await queue.process(definition, { maxDeliver: 2, ackExtendMs: 1_000 }, {
        run: async (job) => {
          await new Promise((resolve) => setTimeout(resolve, 12_000));
          done.push(job.id);
        },
      });
      const id = randomUUID();
      await queue.enqueue(definition, { mediaId: id }, { id });
      await waitFor(() => expect(done).toEqual([id]), 18_000);
      await waitFor(async () => expect(await queue.isPending(definition, id)).toBe(false), 3_000);
      expect(logger.entries.filter((e) => e.level === 'error')).toEqual([]);
    } finally {
      await queue.close();
    }
  }, 30_000);
});
