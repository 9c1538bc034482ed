import type { MessageInitShape } from '@bufbuild/protobuf';
import { currentRequestId, type WorkQueue } from '@timeliner/platform';
import { type ExportTimelineJobSchema, MediaJobs } from '@timeliner/proto';

export type ExportJob = MessageInitShape<typeof ExportTimelineJobSchema> & { exportId: string };

/** Where export jobs go: `MediaJobs.Export` on the work queue, id `export-<exportId>`. */
export interface ExportQueue {
  enqueue(job: ExportJob): Promise<void>;
}

export class WorkQueueExports implements ExportQueue {
  constructor(private readonly queue: WorkQueue) {}

  async enqueue(job: ExportJob): Promise<void> {
    const requestId = currentRequestId();
    await this.queue.enqueue(MediaJobs.Export, job, { id: `export-${job.exportId}`, ...(requestId ? { requestId } : {}) });
  }
}

/** Keeps the jobs it is given (tests; an API without a worker: its exports stay queued). */
export class RecordingExportQueue implements ExportQueue {
  readonly jobs: ExportJob[] = [];

  async enqueue(job: ExportJob): Promise<void> {
    this.jobs.push(job);
  }
}
