import { currentRequestId, type WorkQueue } from '@timeliner/platform';
import { PersonalData } from '@timeliner/proto';

export interface DataExportJob {
  exportId: string;
  userId: string;
}

/** Where "Download your data" jobs go: `PersonalData.ExportJob` on the media worker's queue, id `data-export-<exportId>`. */
export interface DataExportQueue {
  enqueue(job: DataExportJob): Promise<void>;
}

export class WorkQueueDataExports implements DataExportQueue {
  constructor(private readonly queue: WorkQueue) {}

  async enqueue(job: DataExportJob): Promise<void> {
    const requestId = currentRequestId();
    await this.queue.enqueue(PersonalData.ExportJob, job, { id: `data-export-${job.exportId}`, ...(requestId ? { requestId } : {}) });
  }
}

/** Keeps the jobs it is given (tests; an API without a worker: its archives stay queued). */
export class RecordingDataExportQueue implements DataExportQueue {
  readonly jobs: DataExportJob[] = [];

  async enqueue(job: DataExportJob): Promise<void> {
    this.jobs.push(job);
  }
}
