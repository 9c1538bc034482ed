import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ProcessMediaJobSchema } from '@timeliner/proto';

export type ProcessMediaJob = MessageInitShape<typeof ProcessMediaJobSchema> & { mediaId: string };

/**
 * Where a stored original goes to be processed (probe, thumbnail, HLS ladder; images: thumbnail
 * and web rendition). Enqueuing the same media twice must be harmless: jobs carry the media id
 * as their id, and the worker is idempotent per media.
 */
export interface ProcessingQueue {
  /** Resolves `waiting` when the job waits for its person's turn instead (`FairProcessing`). */
  enqueue(job: ProcessMediaJob): Promise<void | 'queued' | 'waiting'>;
}

/** Keeps the jobs it is given; for tests, and for running the API without a worker. */
export class RecordingProcessingQueue implements ProcessingQueue {
  readonly jobs: ProcessMediaJob[] = [];
  /** While set, enqueue fails with it (a work queue that is down). */
  failWith: Error | undefined;

  async enqueue(job: ProcessMediaJob): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.jobs.push(job);
  }
}
