import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { defineEvent, ProcessMediaJobSchema } from '@timeliner/proto';
import type { BusLogger } from '../../src/bus/bus-logger.js';
import { UnprocessableMessageError } from '../../src/bus/event-bus.port.js';
import type { Job, WorkQueue } from '../../src/bus/work-queue.js';
import { recordingLogger } from './recording-logger.js';
import { sleep, waitFor } from './wait.js';

export interface WorkQueueUnderTest {
  open(logger: BusLogger): Promise<WorkQueue>;
  /** Another process of the deployment; the in-process adapter returns another handle of the same queue. */
  openReplica(primary: WorkQueue, logger: BusLogger): Promise<WorkQueue>;
  teardown(): Promise<void>;
}

// Long enough for a wrong extra delivery to show up.
const SETTLE_MS = 400;

type Payload = { mediaId: string };

/** The behaviour every WorkQueue adapter must have. */
export function workQueueContract(adapter: string, target: WorkQueueUnderTest): void {
  describe(`WorkQueue contract: ${adapter}`, () => {
    const opened = new Set<WorkQueue>();
    let log = recordingLogger();
    const open = async () => {
      const queue = await target.open(log);
      opened.add(queue);
      return queue;
    };
    const replicaOf = async (queue: WorkQueue) => {
      const replica = await target.openReplica(queue, log);
      opened.add(replica);
      return replica;
    };
    /** A job definition of this test alone: the stream and its consumers outlive single tests. */
    const definition = () => defineEvent(`test.job${randomBytes(4).toString('hex')}.run`, 1, ProcessMediaJobSchema);
    const job = () => ({ id: randomUUID(), payload: { mediaId: randomUUID(), timelineId: randomUUID(), originalKey: 'media/x/original' } });

    afterEach(async () => {
      await Promise.all([...opened].map((queue) => queue.close()));
      opened.clear();
      log = recordingLogger();
    });
    afterAll(() => target.teardown());

    it('hands each job to exactly one of two workers', async () => {
      const queue = await open();
      const replica = await replicaOf(queue);
      const def = definition();
      const seen: Array<{ worker: string; id: string; mediaId: string }> = [];
      const worker = (name: string) => ({
        run: async (j: Job<Payload>) => {
          await sleep(30);
          seen.push({ worker: name, id: j.id, mediaId: j.payload.mediaId });
        },
      });
      await queue.process(def, {}, worker('a'));
      await replica.process(def, {}, worker('b'));

      const jobs = Array.from({ length: 8 }, job);
      for (const j of jobs) expect(await queue.enqueue(def, j.payload, { id: j.id })).toEqual({ duplicate: false });

      await waitFor(() => expect(seen).toHaveLength(8), 10_000);
      await sleep(SETTLE_MS);
      expect(seen).toHaveLength(8);
      expect(seen.map((s) => s.id).sort()).toEqual(jobs.map((j) => j.id).sort());
      expect(new Set(seen.map((s) => s.worker))).toEqual(new Set(['a', 'b']));
      const byId = new Map<string, string>(jobs.map((j) => [j.id, j.payload.mediaId]));
      for (const s of seen) expect(s.mediaId).toBe(byId.get(s.id));
    });

    it('passes metadata and attempts, and retries a failed job with back-off', async () => {
      const queue = await open();
      const def = definition();
      const attempts: Array<{ attempt: number; at: number }> = [];
      const failed: unknown[] = [];
      let done = false;
      const actorUserId = randomUUID();
      await queue.process(def, { maxDeliver: 3, backoffMs: [300] }, {
        run: async (j) => {
          expect(j.meta).toMatchObject({ id: j.id, type: def.type, version: 1, actorUserId, requestId: 'req-42' });
          attempts.push({ attempt: j.attempt, at: Date.now() });
          if (j.attempt === 1) throw new Error('transient');
          done = true;
        },
        failed: async (_j, error) => void failed.push(error),
      });
      const j = job();
      await queue.enqueue(def, j.payload, { id: j.id, actorUserId, requestId: 'req-42' });

      await waitFor(() => expect(done).toBe(true), 10_000);
      await sleep(SETTLE_MS);
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(250);
      expect(failed).toEqual([]);
      expect(await queue.isPending(def, j.id)).toBe(false);
    });

    it('gives up after maxDeliver attempts and calls the failure hook once', async () => {
      const queue = await open();
      const def = definition();
      let runs = 0;
      const failures: Array<{ attempt: number; message: string }> = [];
      await queue.process(def, { maxDeliver: 3, backoffMs: [50] }, {
        run: async (j) => {
          runs++;
          throw new Error(`attempt ${j.attempt} failed`);
        },
        failed: async (j, error) => void failures.push({ attempt: j.attempt, message: (error as Error).message }),
      });
      const j = job();
      await queue.enqueue(def, j.payload, { id: j.id });

      await waitFor(() => expect(failures).toHaveLength(1), 10_000);
      await sleep(SETTLE_MS);
      expect(runs).toBe(3);
      expect(failures).toEqual([{ attempt: 3, message: 'attempt 3 failed' }]);
      expect(await queue.isPending(def, j.id)).toBe(false);
      expect(log.entries.some((e) => e.level === 'error' && e.message.includes('given up'))).toBe(true);
    });

    it('gives up at once on UnprocessableMessageError', async () => {
      const queue = await open();
      const def = definition();
      let runs = 0;
      const failures: unknown[] = [];
      await queue.process(def, { maxDeliver: 5, backoffMs: [50] }, {
        run: async () => {
          runs++;
          throw new UnprocessableMessageError('not a video');
        },
        failed: async (_j, error) => void failures.push(error),
      });
      const j = job();
      await queue.enqueue(def, j.payload, { id: j.id });
      await waitFor(() => expect(failures).toHaveLength(1), 10_000);
      await sleep(SETTLE_MS);
      expect(runs).toBe(1);
      expect(failures[0]).toBeInstanceOf(UnprocessableMessageError);
    });

    it('runs a job enqueued twice with the same id once', async () => {
      const queue = await open();
      const replica = await replicaOf(queue);
      const def = definition();
      const j = job();
      expect(await queue.enqueue(def, j.payload, { id: j.id })).toEqual({ duplicate: false });
      expect(await queue.enqueue(def, j.payload, { id: j.id })).toEqual({ duplicate: true });
      expect(await replica.enqueue(def, j.payload, { id: j.id })).toEqual({ duplicate: true });
      expect(await queue.isPending(def, j.id)).toBe(true);

      const runs: string[] = [];
      await queue.process(def, {}, { run: async (x) => void runs.push(x.id) });
      await replica.process(def, {}, { run: async (x) => void runs.push(x.id) });
      await waitFor(() => expect(runs).toHaveLength(1), 10_000);
      // Still inside the duplicate window after it ran.
      expect(await queue.enqueue(def, j.payload, { id: j.id })).toEqual({ duplicate: true });
      await sleep(SETTLE_MS);
      expect(runs).toEqual([j.id]);
    });

    it('does not hand a long job that keeps its lease to another worker', async () => {
      const queue = await open();
      const replica = await replicaOf(queue);
      const def = definition();
      // Lease of 3 × 200 ms; the job runs for 2 s.
      const options = { ackExtendMs: 200, maxDeliver: 3, backoffMs: [50] };
      const runs: number[] = [];
      let finished = false;
      const handler = {
        run: async (j: Job<Payload>) => {
          runs.push(j.attempt);
          await sleep(2_000);
          finished = true;
        },
      };
      await queue.process(def, options, handler);
      await replica.process(def, options, handler);
      const j = job();
      await queue.enqueue(def, j.payload, { id: j.id });
      await waitFor(() => expect(runs).toHaveLength(1), 5_000);
      expect(await queue.isPending(def, j.id)).toBe(true);
      await waitFor(() => expect(finished).toBe(true), 10_000);
      await sleep(SETTLE_MS);
      expect(runs).toEqual([1]);
      expect(await queue.isPending(def, j.id)).toBe(false);
    });

    it('aborts running jobs on close and hands them to another worker', async () => {
      const queue = await open();
      const replica = await replicaOf(queue);
      const def = definition();
      const started: string[] = [];
      let aborted = 0;
      let completedBy = '';
      await queue.process(def, { backoffMs: [50] }, {
        run: (j) =>
          new Promise<void>((_resolve, reject) => {
            started.push('first');
            j.signal.addEventListener('abort', () => {
              aborted++;
              reject(new Error('aborted'));
            });
          }),
      });
      const j = job();
      await queue.enqueue(def, j.payload, { id: j.id });
      await waitFor(() => expect(started).toEqual(['first']), 5_000);

      const subscription = await replica.process(def, { backoffMs: [50] }, { run: async () => void (completedBy = 'second') });
      // Closing the first worker's queue (the in-process adapter: its handle) puts the job back.
      if (replica === queue) throw new Error('replica must be a separate handle');
      await queue.close();
      opened.delete(queue);
      expect(aborted).toBe(1);
      await waitFor(() => expect(completedBy).toBe('second'), 10_000);
      await subscription.unsubscribe();
    });
  });
}
