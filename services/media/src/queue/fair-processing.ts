import type { Logger } from 'pino';
import type { Transactions } from '@timeliner/platform';
import { MediaType } from '@timeliner/proto';
import type { MediaRepository, QueueableMedia } from '../media/media.repository.js';
import type { ProcessingQueue, ProcessMediaJob } from './processing-queue.js';

export type { QueueableMedia } from '../media/media.repository.js';

/**
 * Turns between people on the shared processing queue. The work queue is first in, first out:
 * fifty uploads from one person would hold everyone else's behind all fifty. So each person has at
 * most `perPerson` media in the work queue (queued or running, `queued_at` set); the rest stay in
 * the database, `processing` with `queued_at` empty, until one of theirs is done: then their
 * oldest waiting media joins the END of the queue, behind whatever others queued meanwhile. With
 * one per person, another person's upload waits for at most one job of each person ahead of it.
 *
 * Both sides use it: the API offers a media when its upload is stored (and its sweep offers again
 * those never queued), the worker releases the next one of the same person after each job, and
 * on start and on a timer releases whatever is waiting with no job of its person in the queue.
 * A per-person advisory lock makes "count, then queue" one step for each person.
 */
export class FairProcessing implements ProcessingQueue {
  constructor(
    private readonly media: MediaRepository,
    private readonly transactions: Transactions,
    private readonly queue: ProcessingQueue,
    private readonly logger: Logger,
    private readonly perPerson = 1,
  ) {}

  /** Queues the job if its uploader's turn allows; else it waits (`queued_at` stays empty). */
  async enqueue(job: ProcessMediaJob): Promise<'queued' | 'waiting'> {
    return this.transactions.run(async (manager) => {
      const media = await this.media.turnOf(manager, job.mediaId);
      // Deleted, or no row to keep turns by (a job queued by hand): queue it as it is.
      if (!media) {
        await this.queue.enqueue(job);
        return 'queued';
      }
      await this.media.lockTurns(manager, media.uploaderId);
      if ((await this.media.queuedOf(manager, media.uploaderId, job.mediaId)) >= this.perPerson) return 'waiting';
      await this.queue.enqueue(job);
      await this.media.markQueued(job.mediaId, manager);
      return 'queued';
    });
  }

  /**
   * Queues the oldest waiting media of every person whose turn allows it (all people, or the
   * ones given); returns how many were queued.
   */
  async release(uploaderIds?: string[]): Promise<number> {
    const rows = await this.media.nextTurns(this.perPerson, uploaderIds);
    let queued = 0;
    for (const media of rows) {
      try {
        if ((await this.enqueue(jobOf(media))) === 'queued') queued += 1;
      } catch (err) {
        this.logger.error({ err, mediaId: media.id }, 'could not queue a waiting media; the next release tries again');
      }
    }
    return queued;
  }

  /** How many of this person's media wait for processing (queued, running or waiting their turn). */
  pendingOf(uploaderId: string): Promise<number> {
    return this.media.pendingOf(uploaderId);
  }
}

export function jobOf(media: QueueableMedia): ProcessMediaJob {
  return {
    mediaId: media.id,
    timelineId: media.timelineId,
    mediaType: media.mediaType === 'image' ? MediaType.IMAGE : MediaType.VIDEO,
    originalKey: media.filename,
    mimeType: media.mimeType,
  };
}
