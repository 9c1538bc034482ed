import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { type Caller, type EventWriter, type IdentitySecret, signingKey, type Transactions } from '@timeliner/platform';
import { MediaEvents } from '@timeliner/proto';
import { parseRange } from '../media/http-objects.js';
import type { ServedObject } from '../media/media.service.js';
import type { ExportRepository } from './exports.repository.js';

/**
 * Whether a request for a file is a download of it: a GET of the whole file, or of a range from its
 * first byte to its end (how browsers and download managers start). A HEAD, a revalidation the
 * browser already holds (If-None-Match) and the later ranges of a download that is going on are not.
 */
export function startsDownload(request: FastifyRequest, object: ServedObject): boolean {
  if (request.method !== 'GET' || request.headers['if-none-match'] !== undefined) return false;
  const range = parseRange(request.headers.range, object.info.size);
  return range.kind === 'whole' || (range.kind === 'partial' && range.start === 0 && range.end === object.info.size - 1);
}

/**
 * Tells the timelines service that an export's file was downloaded (`ExportDownloaded`), so its
 * analytics count real downloads. The viewer is the person when signed in, else a keyed hash of
 * the address and the UTC day, as the timelines service keys its viewers.
 */
export class ExportDownloads {
  constructor(
    private readonly exports: ExportRepository,
    private readonly transactions: Transactions,
    private readonly events: EventWriter,
    private readonly identitySecret: IdentitySecret,
    private readonly logger: Logger,
  ) {}

  /** Never fails the download it counts: a failure to record is logged. */
  async record(caller: Caller, exportId: string): Promise<void> {
    try {
      await this.transactions.run(async (manager) => {
        const timelineId = await this.exports.timelineOf(exportId.toLowerCase(), manager);
        if (!timelineId) return;
        await this.events.add(
          manager,
          MediaEvents.ExportDownloaded,
          { exportId: exportId.toLowerCase(), timelineId, viewerKey: this.viewerKey(caller) },
          { ...(caller.userId ? { actorUserId: caller.userId } : {}), requestId: caller.requestId },
        );
      });
    } catch (err) {
      this.logger.warn({ err, exportId }, 'a download of an export was not counted');
    }
  }

  private viewerKey(caller: Caller): string {
    if (caller.userId) return `u:${caller.userId}`;
    const day = new Date().toISOString().slice(0, 10);
    return `a:${createHmac('sha256', signingKey(this.identitySecret)).update(`${caller.clientIp}\n${day}`).digest('base64url')}`;
  }
}
