import { currentRequestId, type WorkQueue } from '@timeliner/platform';
import { MediaJobs } from '@timeliner/proto';
import type { ProcessingQueue, ProcessMediaJob } from './processing-queue.js';

/** `MediaJobs.Process` on the platform's work queue, de-duplicated by media id. */
export class WorkQueueProcessing implements ProcessingQueue {
  constructor(private readonly queue: WorkQueue) {}

  async enqueue(job: ProcessMediaJob): Promise<void> {
    const requestId = currentRequestId();
    await this.queue.enqueue(MediaJobs.Process, job, { id: job.mediaId, ...(requestId ? { requestId } : {}) });
  }
}
